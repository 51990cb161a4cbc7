import type { AppContext } from '../context';

const KEY = 'storefront:content-version';
const STOCK_KEY_PREFIX = 'storefront:stock-version:';
const LOCAL_CHECK_MS = 1_000;
const VERSION_TTL_SECONDS = 30 * 24 * 60 * 60;
/** Products whose stock version this process remembers; past it the memory starts over. */
const MAX_REMEMBERED_PRODUCTS = 50_000;

interface Remembered {
  value: string;
  checkedAt: number;
}

let local: (Remembered & { store: unknown }) | null = null;
let stockLocal: { store: unknown; products: Map<number, Remembered> } = { store: null, products: new Map() };

/**
 * A number that changes whenever something shown on anonymous pages changes (a product,
 * a group, a price, settings, content). Cached pages carry the version they were rendered
 * at, so a change retires them everywhere: the number lives in the shared store (Redis when
 * configured), and each process re-reads it at most once a second.
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

function rememberedStock(ctx: AppContext): Map<number, Remembered> {
  if (stockLocal.store !== ctx.kv || stockLocal.products.size > MAX_REMEMBERED_PRODUCTS)
    stockLocal = { store: ctx.kv, products: new Map() };
  return stockLocal.products;
}

/**
 * The version of the pages that show one product's stock and Sold count (its product page
 * and `GET /v1/good/:id`): the content version plus a number per product that orders and
 * payments change. A sale retires the pages of what it sold, not the whole cache.
 */
export async function currentStockPageVersion(ctx: AppContext, productId: number): Promise<string> {
  const content = await currentContentVersion(ctx);
  const products = rememberedStock(ctx);
  let stock = products.get(productId);
  if (!stock || Date.now() - stock.checkedAt >= LOCAL_CHECK_MS) {
    stock = { value: (await ctx.kv.get(STOCK_KEY_PREFIX + productId)) ?? '0', checkedAt: Date.now() };
    products.set(productId, stock);
  }
  return `${content}.${stock.value}`;
}

/** `currentStockPageVersion` as this process read it less than a second ago, without waiting; else undefined. */
export function peekStockPageVersion(ctx: AppContext, productId: number, now = Date.now()): string | undefined {
  const content = peekContentVersion(ctx, now);
  const stock = stockLocal.store === ctx.kv ? stockLocal.products.get(productId) : undefined;
  if (content === undefined || !stock || now - stock.checkedAt >= LOCAL_CHECK_MS) return undefined;
  return `${content}.${stock.value}`;
}

/**
 * After an order, a payment or a cancellation: retires the cached pages of the products
 * whose stock or Sold count changed. Listings show a sold-out badge, so `listingsToo` (a SKU
 * ran out or came back) retires every page; their Sold counts may otherwise lag by the
 * page cache's lifetime (PAGE_CACHE_TTL_SECONDS).
 */
export async function retireStockPages(
  ctx: AppContext,
  change: { productIds: readonly number[]; listingsToo: boolean },
): Promise<void> {
  if (change.listingsToo) await bumpContentVersion(ctx);
  const products = rememberedStock(ctx);
  await Promise.all(
    [...new Set(change.productIds)].map(async (productId) => {
      await ctx.kv.increment(STOCK_KEY_PREFIX + productId, VERSION_TTL_SECONDS);
      products.delete(productId);
    }),
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
