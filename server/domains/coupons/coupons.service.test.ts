import { describe, expect, it } from 'vitest';
import { evaluateCoupon, type Coupon } from './coupons.service';

const base: Coupon = {
  id: 1,
  code: 'TEN',
  kind: 'percent',
  value: 10,
  minSpendMinor: 10_000,
  startsAt: null,
  expiresAt: null,
  usageLimit: null,
  usedCount: 0,
  active: true,
  createdAt: new Date(),
  updatedAt: new Date(),
};
const now = new Date('2026-06-01T00:00:00Z');

describe('evaluateCoupon', () => {
  it('takes a percentage (rounded down) or a fixed amount off, never more than the goods', () => {
    expect(evaluateCoupon(base, 12_345, now)).toMatchObject({ ok: true, discountMinor: 1_234 });
    expect(evaluateCoupon({ ...base, kind: 'fixed', value: 3_000, minSpendMinor: 0 }, 2_000, now)).toMatchObject({
      ok: true,
      discountMinor: 2_000,
    });
  });

  it('refuses unknown, inactive, early, expired, used-up and below-minimum cases', () => {
    expect(evaluateCoupon(undefined, 50_000, now)).toMatchObject({ ok: false, messageKey: 'order.couponInvalid' });
    expect(evaluateCoupon({ ...base, active: false }, 50_000, now)).toMatchObject({
      messageKey: 'order.couponInvalid',
    });
    expect(evaluateCoupon({ ...base, startsAt: new Date('2027-01-01') }, 50_000, now)).toMatchObject({
      messageKey: 'order.couponNotStarted',
    });
    expect(evaluateCoupon({ ...base, expiresAt: now }, 50_000, now)).toMatchObject({
      messageKey: 'order.couponExpired',
    });
    expect(evaluateCoupon({ ...base, usageLimit: 3, usedCount: 3 }, 50_000, now)).toMatchObject({
      messageKey: 'order.couponUsedUp',
    });
    expect(evaluateCoupon(base, 9_999, now)).toMatchObject({
      messageKey: 'order.couponMinSpend',
      minSpendMinor: 10_000,
    });
  });
});
