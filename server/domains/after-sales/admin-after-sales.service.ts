import { and, asc, desc, eq, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import { pickText, translate, type Locale, type MessageKey } from '../../../i18n';
import { afterSaleLines, afterSales, refunds, users, type AfterSaleState } from '../../db/schema';
import { AFTER_SALE_REJECTIONS } from '../../db/schema/after-sales';
import type { AppContext, StaffActing, Transaction } from '../../context';
import { retireStockPages } from '../../shared/content-version';
import { AppError, BadRequestError, NotFoundError } from '../../shared/errors';
import { formatPrice } from '../../shared/money';
import { AFTER_SALE_TYPE } from '../../shared/order-status';
import { recordAudit } from '../audit/audit.service';
import { returnStock, takeStock } from '../catalog/stock.service';
import { loadSkuFacts } from '../catalog/sku-facts';
import { orderStatusText } from '../orders/orders.service';
import { refundableOf, refundInTransaction } from '../payments/refunds.service';
import { CARRIERS, findCarrier } from '../tracking/carriers';
import { orderTimers } from '../site-settings/site-settings.service';
import { canTakeAction, FINISHED_CASE_STATES, type AfterSaleAction } from './after-sale-lifecycle';
import { enqueueAfterSaleMail, type AfterSaleMailKind } from './after-sale-mail';
import { APPEAL_DAYS, daysFrom, windowEndsAt } from './after-sale-policy';
import { lockCase, moveCase, type AfterSaleRow, type CaseMove } from './after-sale-state';
import {
  caseDetailView,
  caseSummaryView,
  currenciesOf,
  loadCase,
  loadCases,
  orderMoney,
  typeText,
  stateText,
  wantedSkus,
  type LoadedCase,
} from './after-sale-views';
import type { z } from 'zod';
import type {
  adminAfterSaleListQuery,
  AdminAfterSaleDetail,
  approveAfterSaleBody,
  receiveAfterSaleBody,
  refundAfterSaleBody,
  rejectAfterSaleBody,
  shipExchangeBody,
} from './after-sales.schemas';
import { AFTER_SALE_QUEUES } from './after-sales.schemas';

/**
 * The operator's side of after-sales (ADR 0130): the queue with its deadlines, the case page,
 * and the moves staff make. Each move locks the case, checks the lifecycle table, records the
 * audit event on the order (so the order's timeline shows it) and owes the buyer an email, in
 * one transaction.
 */

class AfterSaleOperatorRefusal extends AppError {
  constructor(key: MessageKey, params?: Record<string, string | number>) {
    super('conflict', key, params);
  }
}

type Queue = (typeof AFTER_SALE_QUEUES)[number];

const QUEUE_STATES: Record<Exclude<Queue, 'open' | 'finished' | 'all'>, AfterSaleState[]> = {
  requested: ['requested'],
  awaiting_parcel: ['awaiting_parcel'],
  in_transit: ['in_transit'],
  received: ['received', 'approved'],
  refunding: ['refunding', 'exchange_shipped'],
};

function queueCondition(queue: Queue): SQL | undefined {
  if (queue === 'all') return undefined;
  if (queue === 'open') return notInArray(afterSales.state, [...FINISHED_CASE_STATES]);
  if (queue === 'finished') return inArray(afterSales.state, [...FINISHED_CASE_STATES]);
  return inArray(afterSales.state, QUEUE_STATES[queue]);
}

function timeLeft(row: AfterSaleRow, now: number): number | null {
  return row.deadline && !FINISHED_CASE_STATES.includes(row.state) ? row.deadline.getTime() - now : null;
}

/** `GET /v1/admin/after-sales`: a queue, the most urgent first (nearest deadline, then oldest). */
export async function listAdminAfterSales(
  ctx: AppContext,
  query: z.infer<typeof adminAfterSaleListQuery>,
  locale: Locale,
) {
  const where = and(
    queueCondition(query.queue),
    query.type ? eq(afterSales.type, query.type) : undefined,
    query.order_id ? eq(afterSales.orderId, query.order_id) : undefined,
  );
  const [rows, counted] = await Promise.all([
    ctx.db
      .select({
        row: afterSales,
        buyer: { id: users.id, username: users.username, email: users.email },
        total: sql<number>`count(*) over ()`.mapWith(Number),
      })
      .from(afterSales)
      .innerJoin(users, eq(users.id, afterSales.userId))
      .where(where)
      .orderBy(
        query.queue === 'finished' ? desc(afterSales.updatedAt) : sql`${afterSales.deadline} asc nulls last`,
        asc(afterSales.createdAt),
      )
      .limit(query.page_size)
      .offset((query.page - 1) * query.page_size),
    ctx.db
      .select({ state: afterSales.state, n: sql<number>`count(*)`.mapWith(Number) })
      .from(afterSales)
      .where(notInArray(afterSales.state, [...FINISHED_CASE_STATES]))
      .groupBy(afterSales.state),
  ]);
  const loaded = await loadCases(
    ctx,
    rows.map(({ row }) => row),
  );
  const wanted = await wantedSkus(ctx, loaded, locale);
  const now = Date.now();
  const counts: Record<string, number> = Object.fromEntries(
    AFTER_SALE_QUEUES.filter((q) => q !== 'finished' && q !== 'all').map((q) => [q, 0]),
  );
  for (const { state, n } of counted) {
    counts.open = (counts.open ?? 0) + n;
    for (const [queue, states] of Object.entries(QUEUE_STATES))
      if (states.includes(state)) counts[queue] = (counts[queue] ?? 0) + n;
  }
  return {
    records: loaded.map((item) => {
      const found = rows.find(({ row }) => row.id === item.row.id)!;
      return {
        ...caseSummaryView(item, locale, wanted),
        buyer: found.buyer,
        country_code: item.order.address.country_code,
        time_left_ms: timeLeft(item.row, now),
      };
    }),
    total: rows[0]?.total ?? 0,
    page: query.page,
    page_size: query.page_size,
    counts,
  };
}

async function caseOrThrow(ctx: AppContext, id: number): Promise<AfterSaleRow> {
  const [row] = await ctx.db.select().from(afterSales).where(eq(afterSales.id, id));
  if (!row) throw new NotFoundError('afterSale.notFound');
  return row;
}

/** `GET /v1/admin/after-sales/:id`: the case page: photos, order, the buyer's other cases, what is left to refund. */
export async function getAdminAfterSale(ctx: AppContext, id: number, locale: Locale): Promise<AdminAfterSaleDetail> {
  const loaded = await loadCase(ctx, await caseOrThrow(ctx, id));
  if (!loaded) throw new NotFoundError('afterSale.notFound');
  const { row, order } = loaded;
  const money = orderMoney(order);
  const [detail, buyerRows, buyerCases, refundable] = await Promise.all([
    caseDetailView(ctx, loaded, locale),
    ctx.db
      .select({ id: users.id, username: users.username, email: users.email })
      .from(users)
      .where(eq(users.id, row.userId)),
    ctx.db
      .select()
      .from(afterSales)
      .where(eq(afterSales.userId, row.userId))
      .orderBy(desc(afterSales.createdAt))
      .limit(20),
    refundableOf(ctx, order.id),
  ]);
  const ends = windowEndsAt(ctx.env, order);
  return {
    ...detail,
    buyer: buyerRows[0] ?? { id: row.userId, username: '', email: '' },
    country_code: order.address.country_code,
    order_status: order.status,
    order_status_text: orderStatusText(locale, order.status),
    order_total: money(order.totalMinor),
    shipping_fee: money(order.shippingFeeMinor),
    refundable: money(refundable),
    returnless_below: money(ctx.env.AFTER_SALE_RETURNLESS_BELOW_MINOR),
    window_ends_at: ends?.toISOString() ?? null,
    buyer_cases: buyerCases
      .filter((other) => other.id !== row.id)
      .map((other) => ({
        id: other.id,
        case_no: other.caseNo,
        type_text: typeText(locale, other.type),
        state_text: stateText(locale, other.state),
        created_at: other.createdAt.toISOString(),
      })),
    time_left_ms: timeLeft(row, Date.now()),
    rejection_options: AFTER_SALE_REJECTIONS.map((value) => ({
      value,
      text: translate(locale, `afterSale.rejection.${value}`),
    })),
    carriers: CARRIERS.map((carrier) => ({ code: carrier.code, name: pickText(carrier.name, locale) })),
    operator_can: operatorMoves(row),
  };
}

/** What the lifecycle table lets an operator do with the case now; a refund also needs an approved amount. */
function operatorMoves(row: AfterSaleRow): AdminAfterSaleDetail['operator_can'] {
  const can = (action: AfterSaleAction) => canTakeAction(row.state, action, 'operator', row.type);
  return {
    approve: can('approve'),
    approve_returnless: can('approveReturnless'),
    reject: can('reject'),
    receive: can('receive'),
    refund: can('refund') && (row.approvedMinor ?? 0) > 0,
    ship_exchange: can('shipExchange'),
  };
}

interface OperatorStep {
  move: CaseMove;
  audit: { action: string; after: Record<string, unknown> };
  mail?: AfterSaleMailKind;
}

/**
 * One operator move: locks the case, lets `decide` check and prepare it (it may write, in the
 * same transaction), moves it, audits it on the order and owes the buyer's email. Answers the
 * case page as it now stands. `afterCommit` runs once the move is stored (retiring pages).
 */
async function operatorMove(
  ctx: StaffActing & { locale: Locale },
  id: number,
  decide: (t: StaffActing & { db: Transaction }, loaded: LoadedCase) => Promise<OperatorStep>,
  afterCommit?: () => Promise<void>,
): Promise<AdminAfterSaleDetail> {
  await caseOrThrow(ctx, id);
  await ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    const row = await lockCase(tx, id);
    if (!row) throw new NotFoundError('afterSale.notFound');
    const loaded = await loadCase(t, row);
    if (!loaded) throw new NotFoundError('afterSale.notFound');
    const step = await decide(t, loaded);
    const moved = await moveCase(t, row, step.move);
    // The case number only in `after`: the log keeps what differs, and a field the same on
    // both sides would be dropped, leaving the order's timeline unable to say which case moved.
    await recordAudit(t, {
      action: step.audit.action,
      entityType: 'order',
      entityId: row.orderId,
      before: { state: row.state },
      after: { case_no: row.caseNo, state: moved.state, ...step.audit.after },
    });
    if (step.mail) await enqueueAfterSaleMail(t, { caseId: row.id, kind: step.mail, historyId: moved.historyId });
  });
  if (afterCommit) await afterCommit();
  return getAdminAfterSale(ctx, id, ctx.locale);
}

function money(amountMinor: number, loaded: LoadedCase): string {
  return formatPrice({ amountMinor, currency: currenciesOf(loaded.order).currency });
}

/** The most a refund case may pay: its estimate, plus the shipping fee when chosen and no other case gave it back. */
async function refundCeiling(ctx: AppContext, loaded: LoadedCase, includeShipping: boolean): Promise<number> {
  if (!includeShipping) return loaded.row.estimateMinor;
  const [other] = await ctx.db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(afterSales)
    .where(
      and(
        eq(afterSales.orderId, loaded.order.id),
        eq(afterSales.includesShipping, true),
        notInArray(afterSales.state, ['cancelled', 'closed', 'rejected']),
        sql`${afterSales.id} <> ${loaded.row.id}`,
      ),
    );
  return loaded.row.estimateMinor + ((other?.n ?? 0) > 0 ? 0 : loaded.order.shippingFeeMinor);
}

/**
 * `POST /v1/admin/after-sales/:id/approve`: a refund only (or a returnless refund) is ready to
 * pay; a return or an exchange waits for the buyer's parcel. The amount may be lowered, or
 * raised by the shipping fee, never past what is left of the payment.
 */
export function approveAfterSale(
  ctx: StaffActing & { locale: Locale },
  id: number,
  body: z.infer<typeof approveAfterSaleBody>,
): Promise<AdminAfterSaleDetail> {
  return operatorMove(ctx, id, async (t, loaded) => {
    const { row } = loaded;
    const refunds = row.type !== AFTER_SALE_TYPE.exchange;
    const ceiling = refunds
      ? Math.min(await refundCeiling(t, loaded, body.include_shipping), await refundableOf(t, row.orderId))
      : 0;
    const amount = refunds ? (body.amount_minor ?? ceiling) : 0;
    if (refunds && amount <= 0) throw new BadRequestError('afterSale.amountRequired');
    if (amount > ceiling)
      throw new AfterSaleOperatorRefusal('afterSale.amountTooHigh', { amount: money(ceiling, loaded) });
    const returnless = body.returnless && row.type === AFTER_SALE_TYPE.refundAndReturn;
    if (returnless && amount >= t.env.AFTER_SALE_RETURNLESS_BELOW_MINOR)
      throw new AfterSaleOperatorRefusal('afterSale.returnlessTooHigh', {
        amount: money(t.env.AFTER_SALE_RETURNLESS_BELOW_MINOR, loaded),
      });
    const waitsForParcel = row.type !== AFTER_SALE_TYPE.refundOnly && !returnless;
    const message = body.message || null;
    return {
      move: {
        action: returnless ? 'approveReturnless' : 'approve',
        to: waitsForParcel ? 'awaiting_parcel' : 'approved',
        actor: 'operator',
        note: returnless ? 'afterSale.history.approvedReturnless' : 'afterSale.history.approved',
        message,
        set: {
          approvedMinor: refunds ? amount : null,
          includesShipping: refunds && body.include_shipping,
          returnless,
          shopMessage: message,
          deadline: waitsForParcel ? daysFrom(new Date(), t.env.AFTER_SALE_PARCEL_DAYS) : null,
        },
      },
      audit: {
        action: 'after_sale.approved',
        after: { approved_minor: refunds ? amount : null, returnless, include_shipping: body.include_shipping },
      },
      mail: 'approved',
    };
  });
}

/** `POST /v1/admin/after-sales/:id/reject`: with a reason code and words to the buyer, who may appeal once. */
export function rejectAfterSale(
  ctx: StaffActing & { locale: Locale },
  id: number,
  body: z.infer<typeof rejectAfterSaleBody>,
): Promise<AdminAfterSaleDetail> {
  return operatorMove(ctx, id, async (_t, { row }) => ({
    move: {
      action: 'reject',
      to: 'rejected',
      actor: 'operator',
      note: 'afterSale.history.rejected',
      message: body.message,
      set: {
        rejection: body.rejection,
        shopMessage: body.message,
        // One appeal, within APPEAL_DAYS; a case already appealed is final.
        deadline: row.appealed ? null : daysFrom(new Date(), APPEAL_DAYS),
        closedAt: new Date(),
      },
    },
    audit: { action: 'after_sale.rejected', after: { rejection: body.rejection } },
    mail: 'rejected',
  }));
}

/**
 * `POST /v1/admin/after-sales/:id/receive`: the parcel is in; per line what was fine and what
 * was damaged, and whether it goes back on the shelf (restocked quantities return to the SKU).
 */
export function receiveAfterSale(
  ctx: StaffActing & { locale: Locale },
  id: number,
  body: z.infer<typeof receiveAfterSaleBody>,
): Promise<AdminAfterSaleDetail> {
  let restockedProducts: number[] = [];
  let backInStock = false;
  return operatorMove(
    ctx,
    id,
    async (t, loaded) => {
      const byId = new Map(body.lines.map((line) => [line.line_id, line]));
      if (byId.size !== loaded.lines.length || loaded.lines.some(({ line }) => !byId.has(line.id)))
        throw new BadRequestError('afterSale.receiveLinesMismatch');
      const restock: Array<{ skuId: number; quantity: number }> = [];
      for (const { line, item } of loaded.lines) {
        const got = byId.get(line.id)!;
        if (got.accepted_quantity + got.damaged_quantity > line.quantity)
          throw new AfterSaleOperatorRefusal('afterSale.receiveTooMany', {
            name: pickText(item.productName, ctx.locale),
          });
        const restocked = got.restock && got.accepted_quantity > 0;
        if (restocked) restock.push({ skuId: item.skuId, quantity: got.accepted_quantity });
        await t.db
          .update(afterSaleLines)
          .set({ acceptedQuantity: got.accepted_quantity, damagedQuantity: got.damaged_quantity, restocked })
          .where(eq(afterSaleLines.id, line.id));
      }
      if (restock.length > 0) {
        backInStock = (await returnStock(t, restock)).backInStock;
        restockedProducts = loaded.lines
          .filter(({ item }) => restock.some((r) => r.skuId === item.skuId))
          .map(({ item }) => item.productId);
      }
      return {
        move: {
          action: 'receive',
          to: 'received',
          actor: 'operator',
          note: 'afterSale.history.received',
          set: { deadline: null },
        },
        audit: {
          action: 'after_sale.received',
          after: {
            lines: body.lines.map((line) => ({
              line_id: line.line_id,
              accepted: line.accepted_quantity,
              damaged: line.damaged_quantity,
              restock: line.restock,
            })),
          },
        },
        mail: 'received',
      };
    },
    async () => {
      if (restockedProducts.length > 0)
        await retireStockPages(ctx, { productIds: restockedProducts, listingsToo: backInStock });
    },
  );
}

/**
 * `POST /v1/admin/after-sales/:id/refund`: pays the approved amount through the order's
 * payment provider (payments' `refundInTransaction`: never more than is left, above the
 * member's limit it waits for a second approver). The case is `refunding` until the gateway
 * answers; a repeat with the same key, or a second click, never makes a second refund.
 */
export async function refundAfterSale(
  ctx: StaffActing & { locale: Locale },
  id: number,
  body: z.infer<typeof refundAfterSaleBody>,
): Promise<AdminAfterSaleDetail> {
  const refundOfKey = async () => {
    const [repeated] = await ctx.db.select().from(refunds).where(eq(refunds.idempotencyKey, body.idempotency_key));
    if (repeated && repeated.afterSaleId === id) return getAdminAfterSale(ctx, id, ctx.locale);
    // The key names a refund of another case or a staff refund: it is not this case's refund.
    if (repeated) throw new AfterSaleOperatorRefusal('afterSale.keyReused');
    return null;
  };
  const repeated = await refundOfKey();
  if (repeated) return repeated;
  try {
    return await payOut(ctx, id, body.idempotency_key);
  } catch (error) {
    // The same request twice at once: the second waited on the case's lock and found it refunding
    // with the first's refund, which is its own.
    const madeMeanwhile = error instanceof AppError && error.kind === 'conflict' ? await refundOfKey() : null;
    if (madeMeanwhile) return madeMeanwhile;
    throw error;
  }
}

function payOut(ctx: StaffActing & { locale: Locale }, id: number, idempotencyKey: string) {
  return operatorMove(ctx, id, async (t, loaded) => {
    const { row } = loaded;
    // Checked before the refund is written: a case not in a refundable state makes no refund.
    if (row.state !== 'approved' && row.state !== 'received')
      throw new AfterSaleOperatorRefusal('afterSale.moveRefused');
    const amount = row.approvedMinor ?? 0;
    if (amount <= 0) throw new AfterSaleOperatorRefusal('afterSale.nothingToRefund');
    const refund = await refundInTransaction(t, {
      orderId: row.orderId,
      amountMinor: amount,
      reason: `${typeText(ctx.locale, row.type)} ${row.caseNo}`,
      idempotencyKey,
      afterSaleId: row.id,
    });
    return {
      move: { action: 'refund', to: 'refunding', actor: 'operator', note: 'afterSale.history.refunding' },
      audit: {
        action: 'after_sale.refunding',
        after: { refund_id: refund.id, amount_minor: amount, refund_status: refund.status },
      },
    };
  });
}

/**
 * `POST /v1/admin/after-sales/:id/ship-exchange`: sends the wanted SKUs for the units that came
 * back fine (all the case's units when none were counted), taking the stock now with the same
 * guard as orders: an exchange never oversells.
 */
export async function shipExchange(
  ctx: StaffActing & { locale: Locale },
  id: number,
  body: z.infer<typeof shipExchangeBody>,
): Promise<AdminAfterSaleDetail> {
  let taken: { productIds: number[]; soldOut: boolean } = { productIds: [], soldOut: false };
  const { autoConfirmDays } = await orderTimers(ctx);
  return operatorMove(
    ctx,
    id,
    async (t, loaded) => {
      if (!findCarrier(body.carrier_code)) throw new BadRequestError('afterSale.carrierRequired');
      if (loaded.row.state !== 'received') throw new AfterSaleOperatorRefusal('afterSale.moveRefused');
      const lines = loaded.lines.flatMap(({ line, item }) => {
        const quantity = line.acceptedQuantity ?? line.quantity;
        return line.wantedSkuId !== null && quantity > 0
          ? [{ skuId: line.wantedSkuId, quantity, name: pickText(item.productName, ctx.locale) }]
          : [];
      });
      const result = await takeStock(t, lines);
      if ('short' in result) {
        const short = lines.find((line) => line.skuId === result.short.skuId);
        throw new AfterSaleOperatorRefusal('afterSale.exchangeOutOfStock', { name: short?.name ?? '' });
      }
      const facts = await loadSkuFacts(
        t.db,
        lines.map((line) => line.skuId),
      );
      taken = { productIds: [...facts.values()].map((fact) => fact.productId), soldOut: result.soldOut };
      return {
        move: {
          action: 'shipExchange',
          to: 'exchange_shipped',
          actor: 'operator',
          note: 'afterSale.history.exchangeShipped',
          message: `${body.carrier_code} ${body.tracking_no}`,
          set: {
            exchangeCarrierCode: body.carrier_code,
            exchangeTrackingNo: body.tracking_no,
            deadline: daysFrom(new Date(), autoConfirmDays),
          },
        },
        audit: {
          action: 'after_sale.exchange_shipped',
          after: {
            carrier_code: body.carrier_code,
            tracking_no: body.tracking_no,
            skus: lines.map((line) => ({ sku_id: line.skuId, quantity: line.quantity })),
          },
        },
        mail: 'exchangeShipped',
      };
    },
    async () => {
      if (taken.productIds.length > 0)
        await retireStockPages(ctx, { productIds: taken.productIds, listingsToo: taken.soldOut });
    },
  );
}
