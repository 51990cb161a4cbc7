import type { CachedPage } from './page-cache';

/**
 * What a request that missed the cache does next: either another request's render of the same
 * key stored `entry` meanwhile (send it as a hit), or it renders itself and calls `finish` with
 * what it stored, or nothing, once it is done.
 */
export type RenderTurn = { entry: CachedPage; finish?: undefined } | { entry?: undefined; finish: RenderFinish };

export type RenderFinish = (stored: CachedPage | undefined) => void;

interface Render {
  stored: Promise<CachedPage | undefined>;
  finish: RenderFinish;
}

/** Keys remembered as "stores nothing"; past it the memory starts over. */
const MAX_REMEMBERED_PASSES = 10_000;

/**
 * One render per cache key at a time, as nginx's `proxy_cache_lock` and Varnish's request
 * coalescing do. When a page is cold (first visit after a start, a catalogue edit or a sell-out
 * retires it) every visitor arriving before its render ends would render it too: 50 visitors,
 * 50 renders of 10-30 ms of CPU each, and the next visitors queue behind them (docs/benchmarks.md,
 * "2026-12-07: a cold page is rendered once": 22-68 pages/s for eight seconds instead of 4,000).
 * Instead the first miss renders and the others wait for it and are sent what it stored, exactly
 * what a hit a moment later would send.
 *
 * When the render stores nothing (a 404, an error, a render that read a session) the waiting
 * requests each render for themselves, all at once, as they would have without waiting, and for
 * `passMs` nobody waits for a render of that key (Varnish's hit-for-pass): an answer that is never
 * stored costs one render's time, not two. A render that has not finished after `maxWaitMs`
 * releases its waiters the same way.
 */
export function createSharedRenders({ maxWaitMs, passMs }: { maxWaitMs: number; passMs: number }) {
  const underWay = new Map<string, Render>();
  const passUntil = new Map<string, number>();

  const storedNothing = (key: string) => {
    if (passUntil.size >= MAX_REMEMBERED_PASSES) passUntil.clear();
    passUntil.set(key, Date.now() + passMs);
  };

  /** The finish of a request that renders without others waiting on it. */
  const alone =
    (key: string): RenderFinish =>
    (entry) => {
      if (entry) passUntil.delete(key);
    };

  const lead = (key: string): RenderFinish => {
    let settle!: (stored: CachedPage | undefined) => void;
    const stored = new Promise<CachedPage | undefined>((resolve) => (settle = resolve));
    const render: Render = {
      stored,
      finish: (entry) => {
        if (underWay.get(key) !== render) return;
        underWay.delete(key);
        clearTimeout(timer);
        if (!entry) storedNothing(key);
        settle(entry);
      },
    };
    const timer = setTimeout(() => render.finish(undefined), maxWaitMs);
    timer.unref();
    underWay.set(key, render);
    return render.finish;
  };

  return {
    /** The request's turn for `key`: wait for a render under way, or lead one, or render alone. */
    async turn(key: string): Promise<RenderTurn> {
      const pass = passUntil.get(key);
      if (pass !== undefined) {
        if (Date.now() < pass) return { finish: alone(key) };
        passUntil.delete(key);
      }
      const render = underWay.get(key);
      if (!render) return { finish: lead(key) };
      const entry = await render.stored;
      return entry ? { entry } : { finish: alone(key) };
    },
  };
}
