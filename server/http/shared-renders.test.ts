import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CachedPage } from './page-cache';
import { createSharedRenders } from './shared-renders';

const page = { status: 200, etag: '"a"' } as CachedPage;

describe('shared renders', () => {
  afterEach(() => vi.useRealTimers());

  it('hands the waiting requests what the render stored, and the next miss leads a new render', async () => {
    const renders = createSharedRenders({ maxWaitMs: 10_000 });
    const first = await renders.turn('page|/en/');
    const waiting = [renders.turn('page|/en/'), renders.turn('page|/en/')];
    const otherKey = await renders.turn('page|/zh-cn/');
    expect(otherKey.finish).toBeTypeOf('function');
    first.finish!(page);
    expect((await Promise.all(waiting)).map((turn) => turn.entry)).toEqual([page, page]);
    const later = await renders.turn('page|/en/');
    expect(later.entry).toBeUndefined();
    expect(later.finish).toBeTypeOf('function');
  });

  it('lets the waiting requests render for themselves when a render outlasts the longest wait', async () => {
    vi.useFakeTimers();
    const renders = createSharedRenders({ maxWaitMs: 10_000 });
    const stuck = await renders.turn('page|/en/');
    let released = false;
    const waiting = renders.turn('page|/en/').then((turn) => ((released = true), turn));
    await vi.advanceTimersByTimeAsync(9_999);
    expect(released).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const turn = await waiting;
    expect(turn.entry).toBeUndefined();
    // Its late finish is ignored: the next miss leads a render of its own.
    stuck.finish!(page);
    const next = await renders.turn('page|/en/');
    expect(next.entry).toBeUndefined();
    const waitingOnNext = renders.turn('page|/en/');
    next.finish!(page);
    expect((await waitingOnNext).entry).toBe(page);
  });
});
