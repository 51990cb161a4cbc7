import { eq, sql, type SQL } from 'drizzle-orm';
import type { MessageKey } from '../../../i18n';
import { coupons } from '../../db/schema';
import type { Database } from '../../db/client';
import { runsAfter } from '../../db/statement-parts';
import type { TransactionContext } from '../../context';
import { checkViolation } from '../../shared/errors';

export type Coupon = typeof coupons.$inferSelect;

export type CouponCheck =
  { ok: true; coupon: Coupon; discountMinor: number } | { ok: false; messageKey: MessageKey; minSpendMinor?: number };

export function normalizeCouponCode(code: string): string {
  return code.trim().toUpperCase();
}

export async function findCoupon(db: Database, code: string): Promise<Coupon | undefined> {
  const [row] = await db
    .select()
    .from(coupons)
    .where(eq(coupons.code, normalizeCouponCode(code)))
    .limit(1);
  return row;
}

/**
 * Whether a coupon applies to goods worth `goodsMinor` at `now`, and how much it takes
 * off (never more than the goods). Percentages round down to the minor unit.
 */
export function evaluateCoupon(coupon: Coupon | undefined, goodsMinor: number, now: Date): CouponCheck {
  if (!coupon || !coupon.active) return { ok: false, messageKey: 'order.couponInvalid' };
  if (coupon.startsAt && coupon.startsAt > now) return { ok: false, messageKey: 'order.couponNotStarted' };
  if (coupon.expiresAt && coupon.expiresAt <= now) return { ok: false, messageKey: 'order.couponExpired' };
  if (coupon.usageLimit !== null && coupon.usedCount >= coupon.usageLimit)
    return { ok: false, messageKey: 'order.couponUsedUp' };
  if (goodsMinor < coupon.minSpendMinor)
    return { ok: false, messageKey: 'order.couponMinSpend', minSpendMinor: coupon.minSpendMinor };
  const raw = coupon.kind === 'percent' ? Math.floor((goodsMinor * coupon.value) / 100) : coupon.value;
  return { ok: true, coupon, discountMinor: Math.min(raw, goodsMinor) };
}

/**
 * Counts one use of the coupon `couponId` (null: none) as part of one statement (checkout's
 * place-order), after the parts named in `after` (`runsAfter`). A use past the coupon's limit
 * fails the whole statement on its CHECK constraint: see `isCouponUsedUp`.
 */
export function claimCouponUseWrite(couponId: SQL, after: readonly SQL[] = []): SQL {
  return sql`update ${coupons} set used_count = ${coupons.usedCount} + 1
    where ${coupons.id} = ${couponId}::integer and ${runsAfter(after)} returning ${coupons.id}`;
}

/** The statement failed because the coupon's last use was taken first (see `claimCouponUseWrite`). */
export function isCouponUsedUp(error: unknown): boolean {
  return checkViolation(error) === 'coupons_usage_within_limit';
}

/** Gives one use back (a cancelled order), inside the caller's transaction; never below zero. */
export async function releaseCouponUse(ctx: TransactionContext, couponId: number): Promise<void> {
  await ctx.db
    .update(coupons)
    .set({ usedCount: sql`greatest(${coupons.usedCount} - 1, 0)` })
    .where(eq(coupons.id, couponId));
}

/** Demo codes: 10% off from 100 CNY, 30 CNY off from 200 CNY (1,000 uses). */
export const DEMO_COUPONS: Array<typeof coupons.$inferInsert> = [
  { code: 'WELCOME10', kind: 'percent', value: 10, minSpendMinor: 10_000 },
  {
    code: 'SAVE30',
    kind: 'fixed',
    value: 3_000,
    minSpendMinor: 20_000,
    usageLimit: 1_000,
    expiresAt: new Date('2030-12-31T23:59:59Z'),
  },
];

export async function seedCoupons(db: Database): Promise<void> {
  await db.insert(coupons).values(DEMO_COUPONS).onConflictDoNothing();
}
