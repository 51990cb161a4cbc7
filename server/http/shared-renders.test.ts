import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CachedPage } from './page-cache';
import { createSharedRenders } from './shared-renders';

const page = { status: 200, etag: '"a"' } as CachedPage;

describe('shared renders', () => {
  afterEach(() => vi.useRealTimers());

  it('hands the waiting requests what the render stored, and the next miss leads a new render', async () => {
    const renders = createSharedRenders({ maxWaitMs: 10_000, passMs: 5_000 });
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
    const renders = createSharedRenders({ maxWaitMs: 10_000, passMs: 5_000 });
    const stuck = await renders.turn('page|/en/');
    let released = false;
    const waiting = renders.turn('page|/en/').then((turn) => ((released = true), turn));
    await vi.advanceTimersByTimeAsync(9_999);
    expect(released).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const turn = await waiting;
    expect(turn.entry).toBeUndefined();
    // Its late finish is ignored, and for a while requests for the key render without waiting.
    stuck.finish!(page);
    const [next, alongside] = await Promise.all([renders.turn('page|/en/'), renders.turn('page|/en/')]);
    expect([next.entry, alongside.entry]).toEqual([undefined, undefined]);
    // One of theirs is stored: the next requests wait for a render again.
    next.finish!(page);
    const leader = await renders.turn('page|/en/');
    const waitingAgain = renders.turn('page|/en/');
    leader.finish!(page);
    expect((await waitingAgain).entry).toBe(page);
  });

  it('after a render that stored nothing, lets requests for that key render without waiting for a while', async () => {
    vi.useFakeTimers();
    const renders = createSharedRenders({ maxWaitMs: 10_000, passMs: 5_000 });
    (await renders.turn('page|/en/missing')).finish!(undefined);
    // Two at once, neither waits for the other: each has its own render.
    const [first, second] = await Promise.all([renders.turn('page|/en/missing'), renders.turn('page|/en/missing')]);
    expect([first.entry, second.entry]).toEqual([undefined, undefined]);
    expect([typeof first.finish, typeof second.finish]).toEqual(['function', 'function']);
    // Five seconds on, a render leads again and the next request waits for it.
    vi.setSystemTime(Date.now() + 5_000);
    const leader = await renders.turn('page|/en/missing');
    const waiting = renders.turn('page|/en/missing');
    leader.finish!(page);
    expect((await waiting).entry).toBe(page);
  });

  it('stops passing a key as soon as a render of it is stored', async () => {
    const renders = createSharedRenders({ maxWaitMs: 10_000, passMs: 5_000 });
    (await renders.turn('page|/en/')).finish!(undefined);
    (await renders.turn('page|/en/')).finish!(page);
    const leader = await renders.turn('page|/en/');
    const waiting = renders.turn('page|/en/');
    leader.finish!(page);
    expect((await waiting).entry).toBe(page);
  });
});
