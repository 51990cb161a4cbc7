import { describe, expect, it } from 'vitest';
import { chargedRefundOf, settlementOfCharged, smallestRefundOf } from './refunds.service';

/** A CNY 1,000.00 order charged ¥21,457 at 21.4567 yen per yuan (ADR 0144). */
const charged = { settlementCurrency: 'CNY', chargedCurrency: 'JPY', rateMicros: 21_456_700 } as const;

describe('refunds in the currency the payment was charged in', () => {
  it('converts each part at the frozen rate; the last one takes what is left, rounding included', () => {
    // CNY 333.33 is 7,152.17 yen: 7,152.
    const first = chargedRefundOf({ ...charged, amountMinor: 33_333, settlementLeft: 100_000, chargedLeft: 21_457 });
    expect(first).toBe(7_152);
    const second = chargedRefundOf({ ...charged, amountMinor: 33_333, settlementLeft: 66_667, chargedLeft: 14_305 });
    expect(second).toBe(7_152);
    // CNY 333.34 would convert to 7,152.38 yen, but 7,153 are left: the last refund gives them all back.
    expect(chargedRefundOf({ ...charged, amountMinor: 33_334, settlementLeft: 33_334, chargedLeft: 7_153 })).toBe(
      7_153,
    );
  });

  it('never gives back more than is left of the charge', () => {
    expect(chargedRefundOf({ ...charged, amountMinor: 99_999, settlementLeft: 100_000, chargedLeft: 21_000 })).toBe(
      21_000,
    );
  });

  it('gives back the settlement amount itself when the payment was charged in the settlement currency', () => {
    expect(
      chargedRefundOf({
        amountMinor: 2_550,
        settlementLeft: 10_000,
        chargedLeft: 10_000,
        settlementCurrency: 'CNY',
        chargedCurrency: 'CNY',
        rateMicros: 138_900,
      }),
    ).toBe(2_550);
  });

  it('names the smallest refund that gives back a unit of the charged currency, and converts a charge back to yuan', () => {
    // At 21.4567 yen per yuan: CN¥0.02 is ¥0.43 (0), CN¥0.03 is ¥0.64 (1).
    expect(smallestRefundOf({ settlementCurrency: 'CNY', chargedCurrency: 'JPY', rateMicros: 21_456_700 })).toBe(3);
    // At 0.1389 dollars per yuan: CN¥0.03 is US$0.0042 (0), CN¥0.04 is US$0.0056 (1 cent).
    expect(smallestRefundOf({ settlementCurrency: 'CNY', chargedCurrency: 'USD', rateMicros: 138_900 })).toBe(4);
    expect(smallestRefundOf({ settlementCurrency: 'CNY', chargedCurrency: 'CNY', rateMicros: 1_000_000 })).toBe(1);
    // ¥5,000 back at 21.4567 is CN¥233.0274..., CN¥233.03.
    expect(
      settlementOfCharged({
        chargedMinor: 5_000,
        settlementCurrency: 'CNY',
        chargedCurrency: 'JPY',
        rateMicros: 21_456_700,
      }),
    ).toBe(23_303);
  });
});
