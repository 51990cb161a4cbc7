import { asc, eq, sql } from 'drizzle-orm';
import { coupons, orders } from '../../db/schema';
import type { ActingContext, AppContext } from '../../context';
import { onlyRow } from '../../db/rows';
import { AppError, NotFoundError, uniqueViolation } from '../../shared/errors';
import { ORDER_STATUS } from '../../shared/order-status';
import { recordAudit } from '../audit/audit.service';
import { getSiteSettings } from '../site-settings/site-settings.service';
import type { Coupon } from './coupons.service';
import type { CouponBody, CouponView } from './coupon-editor.schemas';

/**
 * Coupons in the console (ADR 0175): create, edit, disable and enable, with usage so far.
 * Once an order used a coupon, its code, kind and value stay as they were (orders and the
 * audit log name it by them); dates, minimum spend, limit and the switch may still change.
 */

interface Usage {
  buyers: number;
  discountMinor: number;
  orders: number;
}

const NO_USAGE: Usage = { buyers: 0, discountMinor: 0, orders: 0 };

/** Per coupon: buyers and discount of the orders holding it (not cancelled), and whether any order ever used it. */
async function usageOf(ctx: AppContext, couponId?: number): Promise<Map<number, Usage>> {
  const held = sql`${orders.status} <> ${ORDER_STATUS.cancelled}`;
  const rows = await ctx.db
    .select({
      couponId: sql<number>`${orders.couponId}`,
      buyers: sql<number>`count(distinct ${orders.userId}) filter (where ${held})`.mapWith(Number),
      discountMinor: sql<number>`coalesce(sum(${orders.discountMinor}) filter (where ${held}), 0)`.mapWith(Number),
      orders: sql<number>`count(*)`.mapWith(Number),
    })
    .from(orders)
    .where(couponId === undefined ? sql`${orders.couponId} is not null` : eq(orders.couponId, couponId))
    .groupBy(orders.couponId);
  return new Map(rows.map((row) => [row.couponId, row]));
}

function viewOf(coupon: Coupon, usage: Usage): CouponView {
  return {
    id: coupon.id,
    code: coupon.code,
    kind: coupon.kind,
    value: coupon.value,
    min_spend_minor: coupon.minSpendMinor,
    starts_at: coupon.startsAt?.toISOString() ?? null,
    expires_at: coupon.expiresAt?.toISOString() ?? null,
    usage_limit: coupon.usageLimit,
    active: coupon.active,
    used_count: coupon.usedCount,
    buyers: usage.buyers,
    discount_given_minor: usage.discountMinor,
    locked: coupon.usedCount > 0 || usage.orders > 0,
    created_at: coupon.createdAt.toISOString(),
  };
}

export async function listCoupons(ctx: AppContext) {
  const [rows, usage, settings] = await Promise.all([
    ctx.db.select().from(coupons).orderBy(asc(coupons.id)),
    usageOf(ctx),
    getSiteSettings(ctx),
  ]);
  return { records: rows.map((row) => viewOf(row, usage.get(row.id) ?? NO_USAGE)), currency: settings.currency };
}

function columnsOf(body: CouponBody) {
  return {
    code: body.code,
    kind: body.kind,
    value: body.value,
    minSpendMinor: body.min_spend_minor,
    startsAt: body.starts_at ? new Date(body.starts_at) : null,
    expiresAt: body.expires_at ? new Date(body.expires_at) : null,
    usageLimit: body.usage_limit,
    active: body.active,
  };
}

/** The audited fields, as the API names them. */
function auditShape(coupon: Coupon) {
  const view = viewOf(coupon, NO_USAGE);
  return {
    code: view.code,
    kind: view.kind,
    value: view.value,
    min_spend_minor: view.min_spend_minor,
    starts_at: view.starts_at,
    expires_at: view.expires_at,
    usage_limit: view.usage_limit,
    active: view.active,
  };
}

const duplicateCode = (code: string) => new AppError('conflict', 'adminCoupons.duplicateCode', { code });

/** A concurrent save of the same code gets the same answer as one the check saw. */
async function refusingDuplicates<T>(code: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (uniqueViolation(error)) throw duplicateCode(code);
    throw error;
  }
}

export async function createCoupon(ctx: ActingContext, body: CouponBody): Promise<CouponView> {
  return refusingDuplicates(body.code, () =>
    ctx.db.transaction(async (tx) => {
      const [taken] = await tx.select({ id: coupons.id }).from(coupons).where(eq(coupons.code, body.code));
      if (taken) throw duplicateCode(body.code);
      const coupon = onlyRow(await tx.insert(coupons).values(columnsOf(body)).returning());
      await recordAudit(
        { ...ctx, db: tx },
        { action: 'coupon.created', entityType: 'coupon', entityId: coupon.id, after: auditShape(coupon) },
      );
      return viewOf(coupon, NO_USAGE);
    }),
  );
}

export async function updateCoupon(ctx: ActingContext, couponId: number, body: CouponBody): Promise<CouponView> {
  return refusingDuplicates(body.code, () =>
    ctx.db.transaction(async (tx) => {
      const t = { ...ctx, db: tx };
      const [coupon] = await tx.select().from(coupons).where(eq(coupons.id, couponId)).for('update');
      if (!coupon) throw new NotFoundError('adminCoupons.notFound');
      const usage = (await usageOf(t, couponId)).get(couponId) ?? NO_USAGE;
      const locked = viewOf(coupon, usage).locked;
      if (locked && (coupon.code !== body.code || coupon.kind !== body.kind || coupon.value !== body.value))
        throw new AppError('conflict', 'adminCoupons.lockedAfterUse');
      if (body.usage_limit !== null && body.usage_limit < coupon.usedCount)
        throw new AppError('badRequest', 'adminCoupons.limitBelowUsed', { count: coupon.usedCount });
      if (coupon.code !== body.code) {
        const [taken] = await tx.select({ id: coupons.id }).from(coupons).where(eq(coupons.code, body.code));
        if (taken) throw duplicateCode(body.code);
      }
      const updated = onlyRow(
        await tx
          .update(coupons)
          .set({ ...columnsOf(body), updatedAt: new Date() })
          .where(eq(coupons.id, couponId))
          .returning(),
      );
      await recordAudit(t, {
        action: 'coupon.updated',
        entityType: 'coupon',
        entityId: couponId,
        before: auditShape(coupon),
        after: auditShape(updated),
      });
      return viewOf(updated, usage);
    }),
  );
}

/** Disables or enables a coupon; checkout refuses a disabled one as an invalid code. */
export async function setCouponActive(ctx: ActingContext, couponId: number, active: boolean): Promise<CouponView> {
  return ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    const [coupon] = await tx.select().from(coupons).where(eq(coupons.id, couponId)).for('update');
    if (!coupon) throw new NotFoundError('adminCoupons.notFound');
    const updated = onlyRow(
      await tx.update(coupons).set({ active, updatedAt: new Date() }).where(eq(coupons.id, couponId)).returning(),
    );
    await recordAudit(t, {
      action: active ? 'coupon.enabled' : 'coupon.disabled',
      entityType: 'coupon',
      entityId: couponId,
      before: { active: coupon.active },
      after: { active },
    });
    return viewOf(updated, (await usageOf(t, couponId)).get(couponId) ?? NO_USAGE);
  });
}
