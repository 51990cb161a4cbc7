import type { AppContext } from '../context';

const KEY = 'storefront:content-version';
const LOCAL_CHECK_MS = 1_000;
const VERSION_TTL_SECONDS = 30 * 24 * 60 * 60;

let local: { value: string; checkedAt: number; store: unknown } | null = null;

/**
 * A number that changes whenever something shown on anonymous pages changes (a product,
 * a group, a price, stock, settings, content). Cached pages carry the version they were
 * rendered at, so a change retires them everywhere: the number lives in the shared store
 * (Redis when configured), and each process re-reads it at most once a second.
 */
export async function currentContentVersion(ctx: AppContext): Promise<string> {
  if (local && local.store === ctx.kv && Date.now() - local.checkedAt < LOCAL_CHECK_MS) return local.value;
  const value = (await ctx.kv.get(KEY)) ?? '0';
  local = { value, checkedAt: Date.now(), store: ctx.kv };
  return value;
}

/** The version this process read less than a second ago, without waiting; undefined when it must be re-read. */
export function peekContentVersion(ctx: AppContext, now = Date.now()): string | undefined {
  return local && local.store === ctx.kv && now - local.checkedAt < LOCAL_CHECK_MS ? local.value : undefined;
}

export async function bumpContentVersion(ctx: AppContext): Promise<void> {
  await ctx.kv.increment(KEY, VERSION_TTL_SECONDS);
  local = null;
}
