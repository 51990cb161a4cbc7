import type { AppContext } from '../context';

const KEY = 'storefront:content-version';
const SCOPE_KEY_PREFIX = 'storefront:page-version:';
const LOCAL_CHECK_MS = 1_000;
const VERSION_TTL_SECONDS = 30 * 24 * 60 * 60;
/** Page scopes whose version this process remembers; past it the memory starts over. */
const MAX_REMEMBERED_SCOPES = 50_000;

/**
 * Whether what happened `at` is less than LOCAL_CHECK_MS old. A time ahead of `now` (the clock
 * was set back: NTP, a resumed VM) counts as old, or a remembered version would be kept, and
 * this process's own sales hidden, until the clock caught up.
 */
function withinCheck(at: number, now: number): boolean {
  return at <= now && now - at < LOCAL_CHECK_MS;
}

interface Remembered {
  value: string;
  checkedAt: number;
}

let local: (Remembered & { store: unknown }) | null = null;
let scopeLocal: { store: unknown; scopes: Map<PageScope, Remembered> } = { store: null, scopes: new Map() };

/**
 * What part of the shop a cached page or API answer shows, beyond what every page shows
 * (server/http/cache-keys.ts pageScopeOf says which address has which): one product's page,
 * one group's listing, the home, the listings that may show any product (search, the
 * unfiltered product list), or one content page (by its slug). Each has its own version next
 * to the content version, so a change retires the pages that show it and no other
 * (retireCatalogPages, retireContentPage).
 */
export type PageScope = `product:${number}` | `group:${number}` | 'home' | 'listings' | `content:${string}`;

/**
 * A number that changes whenever something shown on anonymous pages changes (a product,
 * a group, a price, settings, content). Cached pages carry the version they were rendered
 * at, so a change retires them everywhere: the number lives in the shared store (Redis when
 * configured), and each process re-reads it at most once a second.
 */
export async function currentContentVersion(ctx: AppContext): Promise<string> {
  if (local && local.store === ctx.kv && withinCheck(local.checkedAt, Date.now())) return local.value;
  const value = (await ctx.kv.get(KEY)) ?? '0';
  local = { value, checkedAt: Date.now(), store: ctx.kv };
  return value;
}

/** The version this process read less than a second ago, without waiting; undefined when it must be re-read. */
export function peekContentVersion(ctx: AppContext, now = Date.now()): string | undefined {
  return local && local.store === ctx.kv && withinCheck(local.checkedAt, now) ? local.value : undefined;
}

export async function bumpContentVersion(ctx: AppContext): Promise<void> {
  await ctx.kv.increment(KEY, VERSION_TTL_SECONDS);
  local = null;
}

function rememberedScopes(ctx: AppContext): Map<PageScope, Remembered> {
  if (scopeLocal.store !== ctx.kv || scopeLocal.scopes.size > MAX_REMEMBERED_SCOPES)
    scopeLocal = { store: ctx.kv, scopes: new Map() };
  return scopeLocal.scopes;
}

/**
 * The version of the pages of one scope: the content version plus the scope's own number,
 * which orders, payments and catalogue edits move. A sale retires the pages of what it sold,
 * an edit the pages of what it changed, not the whole cache.
 */
export async function currentScopedPageVersion(ctx: AppContext, scope: PageScope): Promise<string> {
  const content = await currentContentVersion(ctx);
  const scopes = rememberedScopes(ctx);
  let own = scopes.get(scope);
  if (!own || !withinCheck(own.checkedAt, Date.now())) {
    own = { value: (await ctx.kv.get(SCOPE_KEY_PREFIX + scope)) ?? '0', checkedAt: Date.now() };
    scopes.set(scope, own);
  }
  return `${content}.${own.value}`;
}

/** `currentScopedPageVersion` as this process read it less than a second ago, without waiting; else undefined. */
export function peekScopedPageVersion(ctx: AppContext, scope: PageScope, now = Date.now()): string | undefined {
  const content = peekContentVersion(ctx, now);
  const own = scopeLocal.store === ctx.kv ? scopeLocal.scopes.get(scope) : undefined;
  if (content === undefined || !own || !withinCheck(own.checkedAt, now)) return undefined;
  return `${content}.${own.value}`;
}

/**
 * Moves the version of each scope: their cached pages are retired on every server copy (the
 * others see it within LOCAL_CHECK_MS). This process drops its own copy of the version at
 * once, so an edit shows on the next page, unless `atMostOncePerCheck` says the scope was
 * retired that way less than LOCAL_CHECK_MS ago: then the move is seen at the next check.
 */
export async function retirePageScopes(
  ctx: AppContext,
  scopes: Iterable<PageScope>,
  { atMostOncePerCheck = false } = {},
): Promise<void> {
  const remembered = rememberedScopes(ctx);
  const now = Date.now();
  await Promise.all(
    [...new Set(scopes)].map(async (scope) => {
      await ctx.kv.increment(SCOPE_KEY_PREFIX + scope, VERSION_TTL_SECONDS);
      if (atMostOncePerCheck) {
        if (withinCheck(lastCoalescedRetirement.get(scope) ?? -Infinity, now)) return;
        if (lastCoalescedRetirement.size >= MAX_REMEMBERED_SCOPES) lastCoalescedRetirement.clear();
        lastCoalescedRetirement.set(scope, now);
      }
      remembered.delete(scope);
    }),
  );
}

/** When this process last dropped its copy of a scope's version under `atMostOncePerCheck`. */
const lastCoalescedRetirement = new Map<PageScope, number>();

/**
 * After an order, a payment or a cancellation: retires the cached pages of the products
 * whose stock or Sold count changed. Listings show a sold-out badge, so `listingsToo` (a SKU
 * ran out or came back) retires every page; their Sold counts may otherwise lag by the
 * page cache's lifetime (PAGE_CACHE_TTL_SECONDS).
 *
 * A sale moves a product's stock many times a second, and every retirement is a render of its
 * page (10-20 ms of CPU) for the next visitor. So a product's page is retired at once for the
 * first order, then at most once per LOCAL_CHECK_MS: the stock it shows lags by at most a
 * second under a sale, and checkout takes stock from the database, never from a page (ADR 0176).
 */
export async function retireStockPages(
  ctx: AppContext,
  change: { productIds: readonly number[]; listingsToo: boolean },
): Promise<void> {
  if (change.listingsToo) await bumpContentVersion(ctx);
  await retirePageScopes(
    ctx,
    change.productIds.map((productId) => `product:${productId}` as const),
    { atMostOncePerCheck: true },
  );
}

/**
 * A value every process keeps in memory until the shared content version moves (every
 * change to what it holds must bump it, which also tells the other server copies), and at
 * most `maxAgeMs` in any case. For small, rarely changed data read on hot paths: settings,
 * exchange rates, shipping rules. A read inside a transaction (another `db`) loads afresh.
 */
export function keptUntilContentChanges<T>(load: (ctx: AppContext) => Promise<T>, maxAgeMs = 60_000) {
  let kept: { value: T; loadedAt: number; db: unknown; version: string } | null = null;
  const read = async (ctx: AppContext): Promise<T> => {
    const version = await currentContentVersion(ctx);
    if (kept && kept.db === ctx.db && kept.version === version && Date.now() - kept.loadedAt < maxAgeMs)
      return kept.value;
    const value = await load(ctx);
    kept = { value, loadedAt: Date.now(), db: ctx.db, version };
    return value;
  };
  /** Drops the kept value in this process (the writer's own, before its version bump is seen). */
  const forget = () => {
    kept = null;
  };
  return { read, forget };
}
