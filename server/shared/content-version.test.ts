import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppContext } from '../context';
import {
  bumpContentVersion,
  currentContentVersion,
  currentScopedPageVersion,
  retireStockPages,
} from './content-version';
import { createMemoryStore } from './kv-store';

/** A context with its own store: the versions this process remembers start over with it. */
const freshContext = () => ({ kv: createMemoryStore() }) as unknown as AppContext;
const sale = (productId: number) => ({ productIds: [productId], listingsToo: false });

describe('page versions', () => {
  // Only the clock is frozen (timers stay real), so "the same second" is exact on a slow machine.
  afterEach(() => vi.useRealTimers());

  it('a sale retires a product page at once, then at most once a second in this process', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const ctx = freshContext();
    const before = await currentScopedPageVersion(ctx, 'product:1');
    await retireStockPages(ctx, sale(1));
    const afterFirst = await currentScopedPageVersion(ctx, 'product:1');
    expect(afterFirst).not.toBe(before);
    await retireStockPages(ctx, sale(1));
    expect(await currentScopedPageVersion(ctx, 'product:1')).toBe(afterFirst);
    vi.setSystemTime(Date.now() + 1_000);
    expect(await currentScopedPageVersion(ctx, 'product:1')).not.toBe(afterFirst);
  });

  it("a clock set back (NTP, a resumed VM) hides neither this process's sales nor other copies' changes until it catches up", async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const ctx = freshContext();
    await retireStockPages(ctx, sale(2));
    const sold = await currentScopedPageVersion(ctx, 'product:2');
    const content = await currentContentVersion(ctx);

    vi.setSystemTime(Date.now() - 60_000);
    await retireStockPages(ctx, sale(2));
    expect(await currentScopedPageVersion(ctx, 'product:2')).not.toBe(sold);
    // Another server copy's edit: only the shared store moves.
    await ctx.kv.increment('storefront:content-version', 60);
    vi.setSystemTime(Date.now() + 1_000);
    expect(await currentContentVersion(ctx)).not.toBe(content);
  });

  it("this process's own content change shows at once", async () => {
    const ctx = freshContext();
    const before = await currentContentVersion(ctx);
    await bumpContentVersion(ctx);
    expect(await currentContentVersion(ctx)).not.toBe(before);
  });
});
