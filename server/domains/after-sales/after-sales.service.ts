import { and, asc, desc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { pickText, translate, type Locale, type MessageKey } from '../../../i18n';
import {
  afterSaleHistory,
  afterSaleLines,
  afterSales,
  orderItems,
  orders,
  products,
  productSkus,
} from '../../db/schema';
import type { AppContext, TransactionContext } from '../../context';
import { onlyRow } from '../../db/rows';
import { uniqueViolation, AppError, BadRequestError, NotFoundError } from '../../shared/errors';
import { AFTER_SALE_REASONS } from '../../db/schema/after-sales';
import { AFTER_SALE_TYPE, ORDER_STATUS, PAY_STATUS, type AfterSaleType } from '../../shared/order-status';
import { loadSkuFacts, propertiesText } from '../catalog/sku-facts';
import { countAttempt } from '../../shared/rate-limits';
import { lockOrder, type OrderRow } from '../orders/order-state';
import { countOrdersByStatus } from '../orders/orders.service';
import type { OrderCounts } from '../orders/orders.schemas';
import { ownedPrivateUploads } from '../uploads/private-uploads.service';
import { WITHDRAWN_CASE_STATES } from './after-sale-lifecycle';
import { enqueueAfterSaleMail } from './after-sale-mail';
import {
  finalSaleCovers,
  lineRefunds,
  needsPhotos,
  refundForUnits,
  windowDays,
  windowEndsAt,
} from './after-sale-policy';
import { lockCase, moveCase, syncOrderStatus, type AfterSaleRow } from './after-sale-state';
import { isBaseStatus } from './after-sale-status';
import {
  caseDetailView,
  caseSummaryView,
  currenciesOf,
  itemProperties,
  loadCase,
  loadCases,
  orderMoney,
  wantedSkus,
} from './after-sale-views';
import type {
  AfterSaleDetail,
  AfterSaleEstimate,
  AfterSaleOptions,
  AfterSalePage,
  CreateAfterSaleBody,
} from './after-sales.schemas';
import type { z } from 'zod';
import type { afterSaleAppealBody, afterSaleEstimateBody, afterSaleTrackingBody } from './after-sales.schemas';
import { dutyChargedByItem } from '../duties/duties.service';

/**
 * The buyer's side of after-sales (ADR 0130): what can be asked on an order, the request with
 * its refund worked out from the order's snapshot, and the buyer's moves on their own cases.
 * Someone else's order or case is "not found", never "forbidden".
 */

type ItemRow = typeof orderItems.$inferSelect;

class AfterSaleRefusal extends AppError {
  constructor(key: MessageKey, params?: Record<string, string | number>) {
    super('conflict', key, params);
  }
}

/** Orders whose status lets a case be opened: paid and not finished, or already in after-sales. */
const OPEN_TO_CASES: readonly number[] = [
  ORDER_STATUS.pendingShipment,
  ORDER_STATUS.pendingReceipt,
  ORDER_STATUS.received,
  ORDER_STATUS.refundInProgress,
  ORDER_STATUS.refunded,
  ORDER_STATUS.refundRejected,
  ORDER_STATUS.exchange,
  ORDER_STATUS.exchangeApproved,
  ORDER_STATUS.exchangeRejected,
];

function dateText(locale: Locale, date: Date): string {
  return new Intl.DateTimeFormat(locale === 'zh-cn' ? 'zh-CN' : 'en-GB', {
    dateStyle: 'medium',
    timeZone: 'UTC',
  }).format(date);
}

/** The status the order had before after-sales, which decides the types open to it. */
function baseStatusOf(order: OrderRow): number | null {
  return isBaseStatus(order.status) ? order.status : order.afterSaleBaseStatus;
}

function typesFor(order: OrderRow): AfterSaleType[] {
  // Goods not yet sent cannot be returned or exchanged: only refunded.
  return baseStatusOf(order) === ORDER_STATUS.pendingShipment
    ? [AFTER_SALE_TYPE.refundOnly]
    : [AFTER_SALE_TYPE.refundOnly, AFTER_SALE_TYPE.refundAndReturn, AFTER_SALE_TYPE.exchange];
}

/** Why no case can be opened on this order now, or null when one can. */
function orderRefusal(
  ctx: AppContext,
  order: OrderRow,
  now: Date,
): { key: MessageKey; params?: Record<string, string> } | null {
  if (order.payStatus !== PAY_STATUS.paid) return { key: 'afterSale.notPaid' };
  if (!OPEN_TO_CASES.includes(order.status)) return { key: 'afterSale.orderNotEligible' };
  const ends = windowEndsAt(ctx.env, order);
  if (ends && ends <= now) return { key: 'afterSale.windowClosed', params: { date: ends.toISOString() } };
  return null;
}

async function ownOrder(ctx: AppContext, userId: number, orderId: number): Promise<OrderRow> {
  const [order] = await ctx.db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!order) throw new NotFoundError('order.notFound');
  return order;
}

/** What each order line already has in cases that count (not withdrawn). */
interface Taken {
  /** Units in any case. */
  all: number;
  /** Units in refund cases, and what those cases' lines are worth back. */
  refund: number;
  refundMinor: number;
}

/** Units of each order line already in a case that counts (not withdrawn), and of those in refund cases. */
async function unitsTaken(ctx: AppContext, orderId: number): Promise<Map<number, Taken>> {
  const rows = await ctx.db
    .select({
      itemId: afterSaleLines.orderItemId,
      quantity: afterSaleLines.quantity,
      refundMinor: afterSaleLines.refundMinor,
      type: afterSales.type,
    })
    .from(afterSaleLines)
    .innerJoin(afterSales, eq(afterSales.id, afterSaleLines.afterSaleId))
    .where(and(eq(afterSales.orderId, orderId), notInArray(afterSales.state, [...WITHDRAWN_CASE_STATES])));
  const taken = new Map<number, Taken>();
  for (const row of rows) {
    const entry = taken.get(row.itemId) ?? { all: 0, refund: 0, refundMinor: 0 };
    entry.all += row.quantity;
    if (row.type !== AFTER_SALE_TYPE.exchange) {
      entry.refund += row.quantity;
      entry.refundMinor += row.refundMinor;
    }
    taken.set(row.itemId, entry);
  }
  return taken;
}

async function itemsOf(ctx: AppContext, orderId: number): Promise<ItemRow[]> {
  return ctx.db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.id));
}

/** `GET /v1/after-sale/order/:orderId`: what the request form offers on this order. */
export async function afterSaleOptionsFor(
  ctx: AppContext,
  input: { userId: number; orderId: number; locale: Locale },
): Promise<AfterSaleOptions> {
  const order = await ownOrder(ctx, input.userId, input.orderId);
  const [items, taken] = await Promise.all([itemsOf(ctx, order.id), unitsTaken(ctx, order.id)]);
  const productIds = [...new Set(items.map((item) => item.productId))];
  const [finalSale, siblingSkus] = await Promise.all([
    productIds.length
      ? ctx.db
          .select({ id: products.id, finalSale: products.finalSale })
          .from(products)
          .where(inArray(products.id, productIds))
      : [],
    productIds.length
      ? ctx.db
          .select({ id: productSkus.id, productId: productSkus.productId })
          .from(productSkus)
          .where(inArray(productSkus.productId, productIds))
      : [],
  ]);
  const facts = await loadSkuFacts(
    ctx.db,
    siblingSkus.map((sku) => sku.id),
  );
  const money = orderMoney(order);
  const { currency, display } = currenciesOf(order);
  const lines = items.map((item) => ({
    order_item_id: item.id,
    product_id: item.productId,
    name: pickText(item.productName, input.locale),
    properties: itemProperties(item, input.locale),
    image: item.image,
    bought: item.quantity,
    available: item.quantity - (taken.get(item.id)?.all ?? 0),
    final_sale: finalSale.find((product) => product.id === item.productId)?.finalSale ?? false,
    unit_price: money(item.unitPriceMinor),
    exchange_options: siblingSkus
      .filter((sku) => sku.productId === item.productId && sku.id !== item.skuId)
      .flatMap((sku) => {
        const fact = facts.get(sku.id);
        return fact && fact.listed && fact.stock > 0
          ? [{ sku_id: sku.id, properties: propertiesText(fact.properties, (text) => pickText(text, input.locale)) }]
          : [];
      }),
  }));
  const refusal =
    orderRefusal(ctx, order, new Date()) ??
    (lines.every((line) => line.available <= 0) ? { key: 'afterSale.nothingLeft' as const, params: undefined } : null);
  const ends = windowEndsAt(ctx.env, order);
  return {
    order_id: order.id,
    order_no: order.orderNo,
    eligible: refusal === null,
    refusal: refusal ? translate(input.locale, refusal.key, datedParams(input.locale, refusal.params)) : null,
    window_ends_at: ends?.toISOString() ?? null,
    window_days: windowDays(ctx.env, order.address.country_code),
    types: typesFor(order),
    reasons: AFTER_SALE_REASONS.map((value) => ({
      value,
      text: translate(input.locale, `afterSale.reason.${value}`),
      needs_photos: needsPhotos(value),
    })),
    currency,
    display_currency: display,
    lines,
  };
}

function datedParams(locale: Locale, params?: Record<string, string>): Record<string, string> | undefined {
  return params?.date ? { ...params, date: dateText(locale, new Date(params.date)) } : params;
}

/**
 * What each requested line is worth back: its share of the order's goods after discount, units
 * already in refund cases counted first. The line's worth up to and including these units, less
 * what the cases that still count already hold of it: a withdrawn case frees its units, and
 * whoever asks for them again never makes the line's cases add up to more than the line.
 */
function priceLines(
  order: OrderRow,
  items: readonly ItemRow[],
  taken: ReadonlyMap<number, Pick<Taken, 'refund' | 'refundMinor'>>,
  type: AfterSaleType,
  lines: z.infer<typeof afterSaleEstimateBody>['lines'],
  duties: ReadonlyMap<number, number>,
): Array<{ item: ItemRow; quantity: number; refundMinor: number; wantedSkuId: number | null }> {
  // A line's worth back includes the duties and import taxes paid with it (the shop reclaims them on a return).
  const goods = lineRefunds(items, order.discountMinor);
  const worth = new Map([...goods].map(([id, minor]) => [id, minor + (duties.get(id) ?? 0)]));
  return lines.map((line) => {
    const item = items.find((candidate) => candidate.id === line.order_item_id);
    if (!item) throw new BadRequestError('afterSale.lineNotInOrder');
    const before = taken.get(item.id);
    const upToThese = refundForUnits(worth.get(item.id) ?? 0, item.quantity, 0, (before?.refund ?? 0) + line.quantity);
    const refundMinor = type === AFTER_SALE_TYPE.exchange ? 0 : Math.max(0, upToThese - (before?.refundMinor ?? 0));
    return { item, quantity: line.quantity, refundMinor, wantedSkuId: line.wanted_sku_id ?? null };
  });
}

/** `POST /v1/after-sale/estimate`: the refund these lines would bring, before asking. */
export async function estimateAfterSale(
  ctx: AppContext,
  input: { userId: number; locale: Locale; body: z.infer<typeof afterSaleEstimateBody> },
): Promise<AfterSaleEstimate> {
  const order = await ownOrder(ctx, input.userId, input.body.order_id);
  const [items, taken, duties] = await Promise.all([
    itemsOf(ctx, order.id),
    unitsTaken(ctx, order.id),
    dutyChargedByItem(ctx, order.id),
  ]);
  const priced = priceLines(order, items, taken, input.body.type, input.body.lines, duties);
  const money = orderMoney(order);
  return {
    refund: money(priced.reduce((sum, line) => sum + line.refundMinor, 0)),
    lines: priced.map((line) => ({ order_item_id: line.item.id, refund: money(line.refundMinor) })),
  };
}

/**
 * `POST /v1/after-sale`: opens a case. Under the order's row lock, so two requests at once can
 * never together ask for more units than were bought. A repeat with the same idempotency key
 * answers the case it made.
 */
export async function createAfterSale(
  ctx: AppContext,
  input: { userId: number; locale: Locale; body: CreateAfterSaleBody },
): Promise<AfterSaleDetail> {
  const { body } = input;
  const repeated = await caseByKey(ctx, input.userId, body.idempotency_key);
  if (repeated) return repeatedCase(ctx, repeated, body.order_id, input.locale);
  // Counted for every door (the API and the request page); a repeat above is free.
  await countAttempt(ctx, 'afterSale.user', String(input.userId));
  if (needsPhotos(body.reason) && body.photos.length === 0) throw new BadRequestError('afterSale.photosRequired');
  if (body.photos.length > 0 && !(await ownedPrivateUploads(ctx, input.userId, body.photos)))
    throw new BadRequestError('afterSale.photoInvalid');
  let created: AfterSaleRow;
  try {
    created = await ctx.db.transaction(async (tx) => {
      const t = { ...ctx, db: tx };
      const order = await lockOrder(tx, body.order_id);
      if (!order || order.userId !== input.userId) throw new NotFoundError('order.notFound');
      const raced = await caseByKey(t, input.userId, body.idempotency_key);
      if (raced) return raced;
      const now = new Date();
      const refusal = orderRefusal(ctx, order, now);
      if (refusal) throw new AfterSaleRefusal(refusal.key, datedParams(input.locale, refusal.params));
      if (!typesFor(order).includes(body.type)) throw new AfterSaleRefusal('afterSale.typeNotAllowed');
      const [items, taken, duties] = await Promise.all([
        itemsOf(t, order.id),
        unitsTaken(t, order.id),
        dutyChargedByItem(t, order.id),
      ]);
      const priced = priceLines(order, items, taken, body.type, body.lines, duties);
      await checkLines(t, { type: body.type, reason: body.reason, locale: input.locale, priced, taken });
      const [count] = await tx
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(afterSales)
        .where(eq(afterSales.orderId, order.id));
      const row = onlyRow(
        await tx
          .insert(afterSales)
          .values({
            caseNo: `${order.orderNo}-${(count?.n ?? 0) + 1}`,
            orderId: order.id,
            userId: input.userId,
            type: body.type,
            reason: body.reason,
            description: body.description,
            photos: body.photos,
            estimateMinor: priced.reduce((sum, line) => sum + line.refundMinor, 0),
            idempotencyKey: body.idempotency_key,
            deadline: new Date(now.getTime() + ctx.env.AFTER_SALE_ANSWER_HOURS * 60 * 60 * 1000),
          })
          .returning(),
      );
      await tx.insert(afterSaleLines).values(
        priced.map((line) => ({
          afterSaleId: row.id,
          orderItemId: line.item.id,
          quantity: line.quantity,
          refundMinor: line.refundMinor,
          wantedSkuId: line.wantedSkuId,
        })),
      );
      const [history] = await tx
        .insert(afterSaleHistory)
        .values({
          afterSaleId: row.id,
          fromState: null,
          toState: 'requested',
          actor: 'buyer',
          note: 'afterSale.history.requested',
        })
        .returning({ id: afterSaleHistory.id });
      await syncOrderStatus(t, order.id, 'buyer');
      await enqueueAfterSaleMail(t, { caseId: row.id, kind: 'requested', historyId: history!.id });
      return row;
    });
  } catch (error) {
    // Two requests with one key at the same moment: the second finds the first's case.
    if (uniqueViolation(error) === 'after_sales_user_idempotency_idx') {
      const first = await caseByKey(ctx, input.userId, body.idempotency_key);
      if (first) return repeatedCase(ctx, first, body.order_id, input.locale);
    }
    throw error;
  }
  return detailOf(ctx, created, input.locale);
}

/** The rules a request's lines must meet beyond their shape: quantities left, final sale, the exchange's SKU. */
async function checkLines(
  ctx: TransactionContext,
  input: {
    type: AfterSaleType;
    reason: CreateAfterSaleBody['reason'];
    locale: Locale;
    priced: ReturnType<typeof priceLines>;
    taken: ReadonlyMap<number, { all: number }>;
  },
): Promise<void> {
  const name = (item: ItemRow) => pickText(item.productName, input.locale);
  const productIds = [...new Set(input.priced.map(({ item }) => item.productId))];
  const finalSale = await ctx.db
    .select({ id: products.id })
    .from(products)
    .where(and(inArray(products.id, productIds), eq(products.finalSale, true)));
  for (const { item, quantity } of input.priced) {
    const available = item.quantity - (input.taken.get(item.id)?.all ?? 0);
    if (quantity > available)
      throw new AfterSaleRefusal('afterSale.quantityTooHigh', { name: name(item), available: Math.max(available, 0) });
    if (finalSale.some((product) => product.id === item.productId) && !finalSaleCovers(input.reason))
      throw new AfterSaleRefusal('afterSale.finalSale', { name: name(item) });
  }
  const wantedIds = input.priced.flatMap((line) => (line.wantedSkuId === null ? [] : [line.wantedSkuId]));
  if (input.type !== AFTER_SALE_TYPE.exchange) {
    if (wantedIds.length > 0)
      throw new BadRequestError('afterSale.wantedSkuInvalid', { name: name(input.priced[0]!.item) });
    return;
  }
  const facts = await loadSkuFacts(ctx.db, wantedIds);
  for (const { item, wantedSkuId } of input.priced) {
    if (wantedSkuId === null) throw new BadRequestError('afterSale.wantedSkuRequired', { name: name(item) });
    const wanted = facts.get(wantedSkuId);
    if (!wanted || wanted.productId !== item.productId || wanted.skuId === item.skuId || !wanted.listed)
      throw new BadRequestError('afterSale.wantedSkuInvalid', { name: name(item) });
  }
}

async function caseByKey(ctx: AppContext, userId: number, key: string): Promise<AfterSaleRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(afterSales)
    .where(and(eq(afterSales.userId, userId), eq(afterSales.idempotencyKey, key)));
  return row;
}

async function repeatedCase(
  ctx: AppContext,
  row: AfterSaleRow,
  orderId: number,
  locale: Locale,
): Promise<AfterSaleDetail> {
  if (row.orderId !== orderId) throw new AfterSaleRefusal('afterSale.keyReused');
  return detailOf(ctx, row, locale);
}

async function detailOf(ctx: AppContext, row: AfterSaleRow, locale: Locale): Promise<AfterSaleDetail> {
  const loaded = await loadCase(ctx, row);
  if (!loaded) throw new NotFoundError('afterSale.notFound');
  return caseDetailView(ctx, loaded, locale);
}

async function ownCase(ctx: AppContext, userId: number, id: number): Promise<AfterSaleRow> {
  const [row] = await ctx.db
    .select()
    .from(afterSales)
    .where(and(eq(afterSales.id, id), eq(afterSales.userId, userId)));
  if (!row) throw new NotFoundError('afterSale.notFound');
  return row;
}

/** `GET /v1/after-sale/:id`: one of the buyer's cases with its timeline. */
export async function getAfterSale(
  ctx: AppContext,
  input: { userId: number; id: number; locale: Locale },
): Promise<AfterSaleDetail> {
  return detailOf(ctx, await ownCase(ctx, input.userId, input.id), input.locale);
}

/** `GET /v1/order/afterSaleList`: the buyer's cases, newest first (the After-Sales tab), or one order's (`orderId`). */
export async function listAfterSales(
  ctx: AppContext,
  input: { userId: number; page: number; page_size: number; locale: Locale; orderId?: number },
): Promise<AfterSalePage> {
  const mine = and(
    eq(afterSales.userId, input.userId),
    input.orderId === undefined ? undefined : eq(afterSales.orderId, input.orderId),
  );
  const rows = await ctx.db
    .select({ row: afterSales, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(afterSales)
    .where(mine)
    .orderBy(desc(afterSales.createdAt), desc(afterSales.id))
    .limit(input.page_size)
    .offset((input.page - 1) * input.page_size);
  const loaded = await loadCases(
    ctx,
    rows.map(({ row }) => row),
  );
  const wanted = await wantedSkus(ctx, loaded, input.locale);
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && input.page > 1) {
    const [counted] = await ctx.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(afterSales)
      .where(mine);
    total = counted?.n ?? 0;
  }
  return {
    records: loaded.map((item) => caseSummaryView(item, input.locale, wanted)),
    total,
    page: input.page,
    page_size: input.page_size,
  };
}

/** A buyer's move on their own case, under its row lock, answering the case as it now stands. */
async function buyerMove(
  ctx: AppContext,
  input: { userId: number; id: number; locale: Locale },
  decide: (t: TransactionContext, row: AfterSaleRow) => Promise<void>,
): Promise<AfterSaleDetail> {
  const own = await ownCase(ctx, input.userId, input.id);
  const moved = await ctx.db.transaction(async (tx) => {
    const row = await lockCase(tx, own.id);
    if (!row) throw new NotFoundError('afterSale.notFound');
    await decide({ ...ctx, db: tx }, row);
    return (await lockCase(tx, own.id))!;
  });
  return detailOf(ctx, moved, input.locale);
}

/** `PUT /v1/after-sale/:id/cancel`: withdraws a request not yet answered, or a return not yet sent. */
export function cancelAfterSale(
  ctx: AppContext,
  input: { userId: number; id: number; locale: Locale },
): Promise<AfterSaleDetail> {
  return buyerMove(ctx, input, async (t, row) => {
    await moveCase(t, row, {
      action: 'cancel',
      to: 'cancelled',
      actor: 'buyer',
      note: 'afterSale.history.cancelled',
      set: { deadline: null, closedAt: new Date() },
    });
  });
}

/** `PUT /v1/after-sale/:id/tracking`: the buyer sent the parcel back; the shop can follow it. */
export function addReturnTracking(
  ctx: AppContext,
  input: { userId: number; id: number; locale: Locale; body: z.infer<typeof afterSaleTrackingBody> },
): Promise<AfterSaleDetail> {
  return buyerMove(ctx, input, async (t, row) => {
    await moveCase(t, row, {
      action: 'sendParcel',
      to: 'in_transit',
      actor: 'buyer',
      note: 'afterSale.history.parcelSent',
      message: `${input.body.carrier} ${input.body.tracking_no}`,
      set: { returnCarrier: input.body.carrier, returnTrackingNo: input.body.tracking_no, deadline: null },
    });
  });
}

/** `PUT /v1/after-sale/:id/appeal`: once, within APPEAL_DAYS of the rejection, with new words and photos. */
export async function appealAfterSale(
  ctx: AppContext,
  input: { userId: number; id: number; locale: Locale; body: z.infer<typeof afterSaleAppealBody> },
): Promise<AfterSaleDetail> {
  await countAttempt(ctx, 'afterSale.user', String(input.userId));
  return buyerMove(ctx, input, async (t, row) => {
    if (row.state === 'rejected' && row.appealed) throw new AfterSaleRefusal('afterSale.appealUsed');
    if (row.state === 'rejected' && row.deadline && row.deadline <= new Date())
      throw new AfterSaleRefusal('afterSale.appealClosed', { date: dateText(input.locale, row.deadline) });
    if (input.body.photos.length > 0 && !(await ownedPrivateUploads(t, input.userId, input.body.photos)))
      throw new BadRequestError('afterSale.photoInvalid');
    const photos = [...new Set([...row.photos, ...input.body.photos])].slice(0, 18);
    await moveCase(t, row, {
      action: 'appeal',
      to: 'requested',
      actor: 'buyer',
      note: 'afterSale.history.appealed',
      message: input.body.message,
      set: {
        appealed: true,
        photos,
        rejection: null,
        deadline: new Date(Date.now() + ctx.env.AFTER_SALE_ANSWER_HOURS * 60 * 60 * 1000),
      },
    });
  });
}

/** `PUT /v1/after-sale/:id/confirm`: the buyer has the replacement; the case is done. */
export function confirmExchange(
  ctx: AppContext,
  input: { userId: number; id: number; locale: Locale },
): Promise<AfterSaleDetail> {
  return buyerMove(ctx, input, async (t, row) => {
    await moveCase(t, row, {
      action: 'confirmExchange',
      to: 'completed',
      actor: 'buyer',
      note: 'afterSale.history.exchangeConfirmed',
      set: { deadline: null, closedAt: new Date() },
    });
  });
}

/**
 * Which of these orders the buyer can open a case on now (the order pages' "Request
 * after-sale"): paid, in a status open to cases, within the window, with a unit left.
 */
export async function requestableOrderIds(
  ctx: AppContext,
  userId: number,
  orderIds: readonly number[],
): Promise<Set<number>> {
  if (orderIds.length === 0) return new Set();
  const now = new Date();
  const rows = await ctx.db
    .select({
      order: orders,
      // Columns named through aliases: in a one-table select Drizzle writes `${orders.id}` as a bare
      // "id", which inside the subquery is ambiguous (order_items has one too).
      bought:
        sql<number>`(select coalesce(sum(i.quantity), 0) from ${orderItems} i where i.order_id = ${orders}.id)`.mapWith(
          Number,
        ),
      taken:
        sql<number>`(select coalesce(sum(l.quantity), 0) from ${afterSaleLines} l join ${afterSales} c on c.id = l.after_sale_id where c.order_id = ${orders}.id and c.state not in ('cancelled', 'closed'))`.mapWith(
          Number,
        ),
    })
    .from(orders)
    .where(and(eq(orders.userId, userId), inArray(orders.id, [...orderIds])));
  return new Set(
    rows.filter((row) => !orderRefusal(ctx, row.order, now) && row.bought > row.taken).map((row) => row.order.id),
  );
}

/**
 * The My Orders tab counts (`GET /v1/order/countByStatus`, the account navigation): the orders
 * per status, and for the After-Sales tab, which lists cases, the buyer's cases.
 */
export async function orderTabCounts(ctx: AppContext, userId: number): Promise<OrderCounts> {
  const [counts, [cases]] = await Promise.all([
    countOrdersByStatus(ctx, userId),
    ctx.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(afterSales)
      .where(eq(afterSales.userId, userId)),
  ]);
  return { ...counts, after_sales: cases?.n ?? 0 };
}
