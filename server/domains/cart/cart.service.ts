import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import { pickText, translate, type Locale } from '../../../i18n';
import { cartItems } from '../../db/schema';
import { markPersonal, type AppContext } from '../../context';
import { BadRequestError, NotFoundError } from '../../shared/errors';
import { formatAmount, type Currency } from '../../shared/money';
import {
  assertLineBuyable,
  lineProblem,
  loadSkuFacts,
  propertiesText,
  type LineProblem,
  type SkuFacts,
} from '../catalog/sku-facts';
import { MAX_CART_LINES, MAX_LINE_QUANTITY, type CartLineView, type CartView } from './cart.schemas';
import { onlyRow } from '../../db/rows';

/**
 * A cart is a set of (SKU, quantity) lines under one key: `u:<user id>` for a signed-in
 * buyer, `g:<random id>` for a visitor (the id sits in an httpOnly cookie).
 */
export type CartKey = `u:${number}` | `g:${string}`;

export const userCartKey = (userId: number): CartKey => `u:${userId}`;
export const guestCartKey = (guestCartId: string): CartKey => `g:${guestCartId}`;

/** Guest carts nobody touched for this long are deleted by the order sweep. */
export const GUEST_CART_TTL_DAYS = 30;

function problemText(locale: Locale, problem: LineProblem | null, facts: SkuFacts): string | null {
  if (!problem) return null;
  return translate(locale, `cart.problem.${problem}`, { stock: facts.stock });
}

export async function getCart(
  ctx: AppContext,
  input: { cartKey: CartKey; locale: Locale; currency: Currency },
): Promise<CartView> {
  markPersonal(ctx);
  const rows = await ctx.db
    .select({ skuId: cartItems.skuId, quantity: cartItems.quantity })
    .from(cartItems)
    .where(eq(cartItems.cartKey, input.cartKey))
    .orderBy(asc(cartItems.createdAt), asc(cartItems.skuId));
  const facts = await loadSkuFacts(
    ctx.db,
    rows.map((row) => row.skuId),
  );
  const pick = (text: Parameters<typeof pickText>[0]) => pickText(text, input.locale);
  const lines: CartLineView[] = [];
  for (const row of rows) {
    const sku = facts.get(row.skuId);
    if (!sku) continue;
    const problem = lineProblem(sku, row.quantity);
    lines.push({
      sku_id: sku.skuId,
      product_id: sku.productId,
      name: pick(sku.productName),
      properties: propertiesText(sku.properties, pick),
      image: sku.image,
      price: formatAmount({ amountMinor: sku.priceMinor, currency: sku.currency }),
      price_minor: sku.priceMinor,
      currency: sku.currency,
      quantity: row.quantity,
      line_total_minor: sku.priceMinor * row.quantity,
      stock: sku.stock,
      problem,
      problem_text: problemText(input.locale, problem, sku),
    });
  }
  const goods = lines.filter((line) => !line.problem).reduce((sum, line) => sum + line.line_total_minor, 0);
  return {
    lines,
    count: lines.reduce((sum, line) => sum + line.quantity, 0),
    goods_amount_minor: goods,
    goods_amount: formatAmount({ amountMinor: goods, currency: input.currency }),
    currency: input.currency,
    has_problems: lines.some((line) => line.problem !== null),
  };
}

export async function cartCount(ctx: AppContext, cartKey: CartKey): Promise<number> {
  markPersonal(ctx);
  const row = onlyRow(
    await ctx.db
      .select({ total: sql<number>`coalesce(sum(${cartItems.quantity}), 0)`.mapWith(Number) })
      .from(cartItems)
      .where(eq(cartItems.cartKey, cartKey)),
  );
  return row.total;
}

/** Adds to a line (creating it), never beyond stock or MAX_LINE_QUANTITY. */
export async function addToCart(
  ctx: AppContext,
  input: { cartKey: CartKey; skuId: number; quantity: number; locale: Locale },
): Promise<number> {
  markPersonal(ctx);
  const sku = (await loadSkuFacts(ctx.db, [input.skuId])).get(input.skuId);
  const [current] = await ctx.db
    .select({ quantity: cartItems.quantity })
    .from(cartItems)
    .where(and(eq(cartItems.cartKey, input.cartKey), eq(cartItems.skuId, input.skuId)));
  const wanted = Math.min((current?.quantity ?? 0) + input.quantity, MAX_LINE_QUANTITY);
  assertLineBuyable(sku, wanted, input.locale);
  if (!current) {
    const lines = await ctx.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(cartItems)
      .where(eq(cartItems.cartKey, input.cartKey));
    if (onlyRow(lines).n >= MAX_CART_LINES) throw new BadRequestError('cart.tooManyLines', { max: MAX_CART_LINES });
  }
  await ctx.db
    .insert(cartItems)
    .values({ cartKey: input.cartKey, skuId: input.skuId, quantity: wanted })
    .onConflictDoUpdate({
      target: [cartItems.cartKey, cartItems.skuId],
      set: {
        quantity: sql`least(${cartItems.quantity} + ${input.quantity}, ${MAX_LINE_QUANTITY})`,
        updatedAt: sql`now()`,
      },
    });
  return wanted;
}

export async function setCartQuantity(
  ctx: AppContext,
  input: { cartKey: CartKey; skuId: number; quantity: number; locale: Locale },
): Promise<void> {
  markPersonal(ctx);
  const sku = (await loadSkuFacts(ctx.db, [input.skuId])).get(input.skuId);
  assertLineBuyable(sku, input.quantity, input.locale);
  const updated = await ctx.db
    .update(cartItems)
    .set({ quantity: input.quantity, updatedAt: sql`now()` })
    .where(and(eq(cartItems.cartKey, input.cartKey), eq(cartItems.skuId, input.skuId)))
    .returning({ skuId: cartItems.skuId });
  if (updated.length === 0) throw new NotFoundError('cart.lineNotFound');
}

export async function removeFromCart(ctx: AppContext, input: { cartKey: CartKey; skuId: number }): Promise<void> {
  markPersonal(ctx);
  const removed = await ctx.db
    .delete(cartItems)
    .where(and(eq(cartItems.cartKey, input.cartKey), eq(cartItems.skuId, input.skuId)))
    .returning({ skuId: cartItems.skuId });
  if (removed.length === 0) throw new NotFoundError('cart.lineNotFound');
}

/**
 * Moves a visitor's cart into the account at login: quantities of the same SKU add up
 * (at most MAX_LINE_QUANTITY), then the guest cart is gone. Safe to call twice.
 */
export async function mergeGuestCart(ctx: AppContext, input: { guestCartId: string; userId: number }): Promise<void> {
  markPersonal(ctx);
  const guest = guestCartKey(input.guestCartId);
  const user = userCartKey(input.userId);
  await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into cart_items (cart_key, sku_id, quantity, created_at, updated_at)
      select ${user}, sku_id, least(quantity, ${MAX_LINE_QUANTITY}), created_at, now() from cart_items where cart_key = ${guest}
      on conflict (cart_key, sku_id) do update
        set quantity = least(cart_items.quantity + excluded.quantity, ${MAX_LINE_QUANTITY}), updated_at = now()`);
    await tx.delete(cartItems).where(eq(cartItems.cartKey, guest));
  });
}

/** Removes the given SKUs from a cart (after they were ordered). */
export async function removeCartLines(db: AppContext['db'], cartKey: CartKey, skuIds: number[]): Promise<void> {
  if (skuIds.length === 0) return;
  await db.delete(cartItems).where(and(eq(cartItems.cartKey, cartKey), inArray(cartItems.skuId, skuIds)));
}

export async function cartLines(
  db: AppContext['db'],
  cartKey: CartKey,
): Promise<Array<{ skuId: number; quantity: number }>> {
  return db
    .select({ skuId: cartItems.skuId, quantity: cartItems.quantity })
    .from(cartItems)
    .where(eq(cartItems.cartKey, cartKey))
    .orderBy(asc(cartItems.createdAt), asc(cartItems.skuId));
}

/** Empties a cart (a buyer's erasure, docs/console.md). */
export async function deleteCart(db: AppContext['db'], cartKey: CartKey): Promise<void> {
  await db.delete(cartItems).where(eq(cartItems.cartKey, cartKey));
}

/** Deletes guest carts untouched for GUEST_CART_TTL_DAYS. */
export async function deleteStaleGuestCarts(ctx: AppContext, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - GUEST_CART_TTL_DAYS * 24 * 60 * 60 * 1000);
  const removed = await ctx.db
    .delete(cartItems)
    .where(and(sql`${cartItems.cartKey} like 'g:%'`, lt(cartItems.updatedAt, cutoff)))
    .returning({ skuId: cartItems.skuId });
  return removed.length;
}
