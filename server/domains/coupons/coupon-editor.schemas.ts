import { z } from 'zod';
import { rowIdFromText } from '../../shared/ids.schemas';

/**
 * The console's coupon editor (docs/console.md, "Coupons"). Fixed amounts and minimum spends
 * are minor units of the settlement currency; a percentage is whole percent.
 */

const minorAmount = z.number().int().min(0).max(1_000_000_000);
const moment = z.iso.datetime({ offset: true }).nullable();

export const COUPON_KINDS = ['fixed', 'percent'] as const;

export const couponBody = z
  .object({
    /** Stored upper-case; buyers type it in any case. */
    code: z
      .string()
      .trim()
      .toUpperCase()
      .min(3, 'adminCoupons.codeFormat')
      .max(32, 'adminCoupons.codeFormat')
      .regex(/^[A-Z0-9_-]+$/, 'adminCoupons.codeFormat'),
    kind: z.enum(COUPON_KINDS),
    value: z.number().int().min(1).max(1_000_000_000),
    min_spend_minor: minorAmount,
    starts_at: moment,
    expires_at: moment,
    /** How many orders may use it in all; null: no limit. */
    usage_limit: z.number().int().min(1).max(1_000_000_000).nullable(),
    active: z.boolean(),
  })
  .superRefine((body, issues) => {
    if (body.kind === 'percent' && body.value > 100)
      issues.addIssue({ code: 'custom', message: 'adminCoupons.percentOver100', path: ['value'] });
    if (body.starts_at && body.expires_at && Date.parse(body.expires_at) <= Date.parse(body.starts_at))
      issues.addIssue({ code: 'custom', message: 'adminCoupons.endBeforeStart', path: ['expires_at'] });
  });
export type CouponBody = z.infer<typeof couponBody>;

export const couponActiveBody = z.object({ active: z.boolean() });
export const couponIdParams = z.object({ id: rowIdFromText });

export const couponView = z.object({
  id: z.number().int(),
  code: z.string(),
  kind: z.enum(COUPON_KINDS),
  value: z.number().int(),
  min_spend_minor: z.number().int(),
  starts_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  usage_limit: z.number().int().nullable(),
  active: z.boolean(),
  /** Orders that hold it now (a cancelled unpaid order gives its use back). */
  used_count: z.number().int(),
  /** Different buyers among those orders. */
  buyers: z.number().int(),
  /** What it took off those orders, in settlement minor units. */
  discount_given_minor: z.number().int(),
  /** Some order used it: its code, kind and value can no longer change (ADR 0175). */
  locked: z.boolean(),
  created_at: z.string(),
});
export type CouponView = z.infer<typeof couponView>;

export const couponList = z.object({ records: z.array(couponView), currency: z.string() });
