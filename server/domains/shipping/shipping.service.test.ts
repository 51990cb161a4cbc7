import { describe, expect, it } from 'vitest';
import { shippingFee, type ShippingRule } from './shipping.service';

const rule: ShippingRule = {
  id: 1,
  countryCode: 'US',
  firstWeightGrams: 500,
  firstFeeMinor: 9800,
  additionalWeightGrams: 500,
  additionalFeeMinor: 3500,
  freeOverMinor: 99900,
  updatedAt: new Date(),
};

describe('shippingFee', () => {
  it('charges the first weight, then each started additional step', () => {
    expect(shippingFee(rule, { weightGrams: 1, goodsMinor: 100 })).toBe(9800);
    expect(shippingFee(rule, { weightGrams: 500, goodsMinor: 100 })).toBe(9800);
    expect(shippingFee(rule, { weightGrams: 501, goodsMinor: 100 })).toBe(13300);
    expect(shippingFee(rule, { weightGrams: 1500, goodsMinor: 100 })).toBe(16800);
  });

  it('is free over the threshold, for a weightless parcel, and without a rule', () => {
    expect(shippingFee(rule, { weightGrams: 5000, goodsMinor: 99900 })).toBe(0);
    expect(shippingFee(rule, { weightGrams: 0, goodsMinor: 100 })).toBe(0);
    expect(shippingFee({ ...rule, freeOverMinor: null }, { weightGrams: 500, goodsMinor: 10_000_000 })).toBe(9800);
    expect(shippingFee(null, { weightGrams: 500, goodsMinor: 100 })).toBe(0);
  });
});
