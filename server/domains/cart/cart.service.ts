import { and, asc, eq, lt, sql, type SQL } from 'drizzle-orm';
import { pickText, translate, type Locale } from '../../../i18n';
import { cartItems } from '../../db/schema';
import { preparedPerDatabase } from '../../db/prepared';
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
import { guestCartId, MAX_CART_LINES, MAX_LINE_QUANTITY, type CartLineView, type CartView } from './cart.schemas';
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

/**
 * Whose cart a request works on, for both doors (the API's `cart.routes.ts` and the cart page):
 * a signed-in buyer's own, after taking in the visitor cart the request still carries
 * (`guestCartAdopted`: its cookie should go), else the visitor's, or null while a visitor has
 * none. A cookie value that is not a guest cart id counts as no cart.
 */
export async function requestCart(
  ctx: AppContext,
  input: { userId: number | undefined; guestCartCookie: string | undefined },
): Promise<{ cartKey: CartKey | null; guestCartAdopted: boolean }> {
  markPersonal(ctx);
  const guest = guestCartId.safeParse(input.guestCartCookie);
  if (input.userId !== undefined) {
    if (guest.success) await mergeGuestCart(ctx, { guestCartId: guest.data, userId: input.userId });
    return { cartKey: userCartKey(input.userId), guestCartAdopted: guest.success };
  }
  return { cartKey: guest.success ? guestCartKey(guest.data) : null, guestCartAdopted: false };
}

/**
 * Holds one cart's writers in line until the transaction ends, so concurrent adds cannot
 * pass the MAX_CART_LINES check together.
 */
async function lockCart(tx: AppContext['db'], cartKey: CartKey): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${cartKey}))`);
}

function problemText(locale: Locale, problem: LineProblem | null, facts: SkuFacts): string | null {
  if (!problem) return null;
  return translate(locale, `cart.problem.${problem}`, { stock: facts.stock });
}

export async function getCart(
  ctx: AppContext,
  input: { cartKey: CartKey | null; locale: Locale; currency: Currency },
): Promise<CartView> {
  markPersonal(ctx);
  const rows = input.cartKey ? await cartLines(ctx.db, input.cartKey) : [];
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

/** Sum of the quantities in a cart; 0 for a visitor without one. */
export async function cartCount(ctx: AppContext, cartKey: CartKey | null): Promise<number> {
  markPersonal(ctx);
  if (!cartKey) return 0;
  return onlyRow(await cartCountOf(ctx.db).execute({ cartKey })).total;
}

const cartCountOf = preparedPerDatabase((db) =>
  db
    .select({ total: sql<number>`coalesce(sum(${cartItems.quantity}), 0)`.mapWith(Number) })
    .from(cartItems)
    .where(eq(cartItems.cartKey, sql.placeholder('cartKey')))
    .prepare('cart_count'),
);

/** Adds to a line (creating it), never beyond stock, MAX_LINE_QUANTITY or MAX_CART_LINES. */
export async function addToCart(
  ctx: AppContext,
  input: { cartKey: CartKey; skuId: number; quantity: number; locale: Locale },
): Promise<number> {
  markPersonal(ctx);
  const sku = (await loadSkuFacts(ctx.db, [input.skuId])).get(input.skuId);
  return ctx.db.transaction(async (tx) => {
    await lockCart(tx, input.cartKey);
    const [current] = await tx
      .select({ quantity: cartItems.quantity })
      .from(cartItems)
      .where(and(eq(cartItems.cartKey, input.cartKey), eq(cartItems.skuId, input.skuId)));
    const wanted = Math.min((current?.quantity ?? 0) + input.quantity, MAX_LINE_QUANTITY);
    assertLineBuyable(sku, wanted, input.locale);
    if (!current) {
      const lines = await tx
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(cartItems)
        .where(eq(cartItems.cartKey, input.cartKey));
      if (onlyRow(lines).n >= MAX_CART_LINES) throw new BadRequestError('cart.tooManyLines', { max: MAX_CART_LINES });
    }
    await tx
      .insert(cartItems)
      .values({ cartKey: input.cartKey, skuId: input.skuId, quantity: wanted })
      .onConflictDoUpdate({
        target: [cartItems.cartKey, cartItems.skuId],
        set: { quantity: wanted, updatedAt: sql`now()` },
      });
    return wanted;
  });
}

/** Sets a line's quantity; a cart without that line (or no cart at all) is a 404. */
export async function setCartQuantity(
  ctx: AppContext,
  input: { cartKey: CartKey | null; skuId: number; quantity: number; locale: Locale },
): Promise<void> {
  markPersonal(ctx);
  const sku = (await loadSkuFacts(ctx.db, [input.skuId])).get(input.skuId);
  assertLineBuyable(sku, input.quantity, input.locale);
  const updated = input.cartKey
    ? await ctx.db
        .update(cartItems)
        .set({ quantity: input.quantity, updatedAt: sql`now()` })
        .where(and(eq(cartItems.cartKey, input.cartKey), eq(cartItems.skuId, input.skuId)))
        .returning({ skuId: cartItems.skuId })
    : [];
  if (updated.length === 0) throw new NotFoundError('cart.lineNotFound');
}

/** Removes a line; a cart without that line (or no cart at all) is a 404. */
export async function removeFromCart(
  ctx: AppContext,
  input: { cartKey: CartKey | null; skuId: number },
): Promise<void> {
  markPersonal(ctx);
  const removed = input.cartKey
    ? await ctx.db
        .delete(cartItems)
        .where(and(eq(cartItems.cartKey, input.cartKey), eq(cartItems.skuId, input.skuId)))
        .returning({ skuId: cartItems.skuId })
    : [];
  if (removed.length === 0) throw new NotFoundError('cart.lineNotFound');
}

/**
 * One SKU's quantity once a visitor's cart joins the account's: the two add up, but not past
 * the shelf or MAX_LINE_QUANTITY. A line that was already past the shelf in either cart keeps
 * its quantity (its problem text says why) rather than shrinking behind the buyer's back.
 */
function mergedQuantity(held: number, added: number, stock: number): number {
  return Math.min(MAX_LINE_QUANTITY, Math.max(Math.min(held + added, stock), held, added));
}

/**
 * Moves a visitor's cart into the account at login (mergedQuantity for SKUs both carts hold),
 * then the guest cart is gone. Lines beyond MAX_CART_LINES, counted after the account's own,
 * are dropped with it, as are SKUs the catalogue no longer has. Safe to call twice.
 */
export async function mergeGuestCart(ctx: AppContext, input: { guestCartId: string; userId: number }): Promise<void> {
  markPersonal(ctx);
  const guest = guestCartKey(input.guestCartId);
  const user = userCartKey(input.userId);
  await ctx.db.transaction(async (tx) => {
    await lockCart(tx, user);
    const guestLines = await cartLines(tx, guest);
    if (guestLines.length === 0) return;
    const held = new Map((await cartLines(tx, user)).map((line) => [line.skuId, line.quantity]));
    const facts = await loadSkuFacts(
      tx,
      guestLines.map((line) => line.skuId),
    );
    let room = MAX_CART_LINES - held.size;
    const merged: Array<typeof cartItems.$inferInsert> = [];
    for (const line of guestLines) {
      const sku = facts.get(line.skuId);
      const heldQuantity = held.get(line.skuId);
      if (!sku || (heldQuantity === undefined && room <= 0)) continue;
      if (heldQuantity === undefined) room -= 1;
      const quantity = mergedQuantity(heldQuantity ?? 0, line.quantity, sku.stock);
      merged.push({ cartKey: user, skuId: line.skuId, quantity, createdAt: line.createdAt });
    }
    if (merged.length > 0) {
      await tx
        .insert(cartItems)
        .values(merged)
        .onConflictDoUpdate({
          target: [cartItems.cartKey, cartItems.skuId],
          set: { quantity: sql`excluded.quantity`, updatedAt: sql`now()` },
        });
    }
    await tx.delete(cartItems).where(eq(cartItems.cartKey, guest));
  });
}

/**
 * Removes the ordered SKUs from a cart as part of one statement (checkout's place-order):
 * `cartKey` (null: the order did not come from a cart) and `lines`, a JSON array of `{"sku_id"}`.
 */
export function removeCartLinesWrite(cartKey: SQL, lines: SQL): SQL {
  return sql`delete from ${cartItems} where ${cartItems.cartKey} = ${cartKey}::text
    and ${cartItems.skuId} in (select sku_id from jsonb_to_recordset(${lines}::jsonb) as ordered(sku_id integer))
    returning ${cartItems.skuId}`;
}

/** A cart lists its lines oldest first. */
const CART_LINE_ORDER = [asc(cartItems.createdAt), asc(cartItems.skuId)];

export async function cartLines(
  db: AppContext['db'],
  cartKey: CartKey,
): Promise<Array<{ skuId: number; quantity: number; createdAt: Date }>> {
  return db
    .select({ skuId: cartItems.skuId, quantity: cartItems.quantity, createdAt: cartItems.createdAt })
    .from(cartItems)
    .where(eq(cartItems.cartKey, cartKey))
    .orderBy(...CART_LINE_ORDER);
}

/**
 * A cart's lines as a JSON array of `{"skuId", "quantity"}` in `cartLines`' order, for a read
 * that takes more than the cart in one statement (checkout/quote-facts.ts); `cartKey` null: none.
 */
export function cartLinesJson(cartKey: SQL): SQL<unknown> {
  return sql`(select coalesce(json_agg(json_build_object('skuId', ${cartItems.skuId}, 'quantity', ${cartItems.quantity})
      order by ${sql.join(CART_LINE_ORDER, sql`, `)}), '[]'::json)
    from ${cartItems} where ${cartItems.cartKey} = ${cartKey}::text)`;
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
