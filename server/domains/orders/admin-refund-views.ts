import { count, desc, eq, inArray } from 'drizzle-orm';
import { orders, refunds, staffMembers } from '../../db/schema';
import type { AppContext } from '../../context';
import type { RefundState } from '../../db/schema';
import type { AdminRefundRow } from './admin-orders.schemas';

type RefundRow = typeof refunds.$inferSelect;

/**
 * Refunds as the console shows them: with the order number and the emails of who asked and
 * who decided (one query each for all rows, however many).
 */
export async function refundViews(ctx: AppContext, rows: readonly RefundRow[]): Promise<AdminRefundRow[]> {
  if (rows.length === 0) return [];
  const staffIds = [
    ...new Set(rows.flatMap((row) => [row.requestedBy, row.decidedBy]).filter((id): id is number => id !== null)),
  ];
  const orderIds = [...new Set(rows.map((row) => row.orderId))];
  const [members, orderNos] = await Promise.all([
    staffIds.length
      ? ctx.db
          .select({ id: staffMembers.id, email: staffMembers.email })
          .from(staffMembers)
          .where(inArray(staffMembers.id, staffIds))
      : [],
    ctx.db.select({ id: orders.id, orderNo: orders.orderNo }).from(orders).where(inArray(orders.id, orderIds)),
  ]);
  const member = (id: number | null) => {
    const found = members.find((m) => m.id === id);
    return id === null ? null : { id, email: found?.email ?? '' };
  };
  return rows.map((row) => ({
    id: row.id,
    order_id: row.orderId,
    order_no: orderNos.find((o) => o.id === row.orderId)?.orderNo ?? '',
    payment_id: row.paymentId,
    amount_minor: row.amountMinor,
    currency: row.currency,
    charged_amount_minor: row.chargedAmountMinor,
    charged_currency: row.chargedCurrency,
    reason: row.reason,
    status: row.status,
    idempotency_key: row.idempotencyKey,
    requested_by: member(row.requestedBy),
    made_in: row.madeIn,
    decided_by: member(row.decidedBy),
    decided_at: row.decidedAt?.toISOString() ?? null,
    provider_refund_ref: row.providerRefundRef,
    last_error: row.lastError,
    created_at: row.createdAt.toISOString(),
    succeeded_at: row.succeededAt?.toISOString() ?? null,
  }));
}

export async function refundView(ctx: AppContext, row: RefundRow): Promise<AdminRefundRow> {
  const [view] = await refundViews(ctx, [row]);
  if (!view) throw new Error('refund view missing');
  return view;
}

/** `GET /v1/admin/refunds`: newest first, optionally of one state (the approval queue is `awaiting_approval`). */
export async function listAdminRefunds(
  ctx: AppContext,
  query: { status?: RefundState; page: number; page_size: number },
) {
  const where = query.status ? eq(refunds.status, query.status) : undefined;
  const [rows, counted] = await Promise.all([
    ctx.db
      .select()
      .from(refunds)
      .where(where)
      .orderBy(desc(refunds.createdAt), desc(refunds.id))
      .limit(query.page_size)
      .offset((query.page - 1) * query.page_size),
    ctx.db.select({ n: count() }).from(refunds).where(where),
  ]);
  return {
    records: await refundViews(ctx, rows),
    total: counted[0]?.n ?? 0,
    page: query.page,
    page_size: query.page_size,
  };
}
