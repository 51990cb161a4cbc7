import { describe, expect, it } from 'vitest';
import {
  finalSaleCovers,
  legalWindowDays,
  lineRefunds,
  needsPhotos,
  refundForUnits,
  windowDays,
  windowEndsAt,
} from './after-sale-policy';

/** The after-sale rules that are not moves (ADR 0130), each expected value written by hand. */

describe('legal windows', () => {
  it.each([
    ['CN', 7],
    ['DE', 14],
    ['FR', 14],
    ['GB', 14],
    ['NO', 14],
    ['IS', 14],
    ['LI', 14],
    ['US', 0],
    ['JP', 0],
    // Switzerland is neither in the EU nor in the EEA.
    ['CH', 0],
  ])('%s gives %i days', (country, days) => {
    expect(legalWindowDays(country)).toBe(days);
  });

  it("the shop's window is its policy, never below the law", () => {
    const week = { AFTER_SALE_WINDOW_DAYS: 7 };
    expect([windowDays(week, 'CN'), windowDays(week, 'DE'), windowDays(week, 'GB'), windowDays(week, 'US')]).toEqual([
      7, 14, 14, 7,
    ]);
    const month = { AFTER_SALE_WINDOW_DAYS: 30 };
    expect([windowDays(month, 'CN'), windowDays(month, 'DE'), windowDays(month, 'US')]).toEqual([30, 30, 30]);
    const none = { AFTER_SALE_WINDOW_DAYS: 0 };
    expect([windowDays(none, 'CN'), windowDays(none, 'NO'), windowDays(none, 'US')]).toEqual([7, 14, 0]);
  });

  it('counts from delivery (else the buyer’s confirmation), and has not begun before either', () => {
    const env = { AFTER_SALE_WINDOW_DAYS: 7 };
    const de = { country_code: 'DE' };
    const cn = { country_code: 'CN' };
    expect(windowEndsAt(env, { deliveredAt: null, receivedAt: null, address: de })).toBeNull();
    expect(windowEndsAt(env, { deliveredAt: new Date('2026-03-01T10:00:00Z'), receivedAt: null, address: de })).toEqual(
      new Date('2026-03-15T10:00:00Z'),
    );
    expect(windowEndsAt(env, { deliveredAt: null, receivedAt: new Date('2026-03-01T10:00:00Z'), address: cn })).toEqual(
      new Date('2026-03-08T10:00:00Z'),
    );
    expect(
      windowEndsAt(env, {
        deliveredAt: new Date('2026-03-01T10:00:00Z'),
        receivedAt: new Date('2026-03-05T08:00:00Z'),
        address: cn,
      }),
    ).toEqual(new Date('2026-03-08T10:00:00Z'));
    expect(
      windowEndsAt(
        { AFTER_SALE_WINDOW_DAYS: 30 },
        { deliveredAt: new Date('2026-12-20T00:00:00Z'), receivedAt: null, address: cn },
      ),
    ).toEqual(new Date('2027-01-19T00:00:00Z'));
  });
});

describe('photos and final sale', () => {
  it.each([
    ['damaged', true],
    ['wrong_item', true],
    ['not_as_described', true],
    ['changed_mind', false],
    ['size_fit', false],
    ['arrived_late', false],
    ['other', false],
  ] as const)('%s: photos needed and final sale covered = %s', (reason, fault) => {
    expect(needsPhotos(reason)).toBe(fault);
    expect(finalSaleCovers(reason)).toBe(fault);
  });
});

describe('lineRefunds', () => {
  it('shares a discount that does not divide evenly, the leftover cent to the largest fraction', () => {
    // 1000 × 3333 / 10000 = 333.3, 333.3, and 333.4: floors 333 + 333 + 333 = 999, the last cent to line 3.
    const refunds = lineRefunds(
      [
        { id: 1, lineTotalMinor: 3333 },
        { id: 2, lineTotalMinor: 3333 },
        { id: 3, lineTotalMinor: 3334 },
      ],
      1000,
    );
    expect([...refunds]).toEqual([
      [1, 3000],
      [2, 3000],
      [3, 3000],
    ]);
  });

  it('gives tied leftover cents to the lowest line ids', () => {
    // 100 / 3 = 33.33 each: 99 in floors, the last cent to id 3 (lower than 5 and 9).
    const refunds = lineRefunds(
      [
        { id: 9, lineTotalMinor: 1000 },
        { id: 3, lineTotalMinor: 1000 },
        { id: 5, lineTotalMinor: 1000 },
      ],
      100,
    );
    expect(refunds.get(9)).toBe(967);
    expect(refunds.get(3)).toBe(966);
    expect(refunds.get(5)).toBe(967);
  });

  it('adds up to the goods less the discount, exactly', () => {
    // 1500, 2500, 6001 = 10001 goods, 3000 off: shares 449.95, 749.93, 1800.12 → 449 + 749 + 1800 = 2998,
    // the two cents left to the largest fractions (.95, .93): 450, 750, 1800.
    const refunds = lineRefunds(
      [
        { id: 1, lineTotalMinor: 1500 },
        { id: 2, lineTotalMinor: 2500 },
        { id: 3, lineTotalMinor: 6001 },
      ],
      3000,
    );
    expect([...refunds]).toEqual([
      [1, 1050],
      [2, 1750],
      [3, 4201],
    ]);
    expect(1050 + 1750 + 4201).toBe(10001 - 3000);
  });

  it('answers the line totals without a discount, and nothing below zero when the discount covers the goods', () => {
    expect([...lineRefunds([{ id: 1, lineTotalMinor: 4500 }], 0)]).toEqual([[1, 4500]]);
    expect([
      ...lineRefunds(
        [
          { id: 1, lineTotalMinor: 500 },
          { id: 2, lineTotalMinor: 300 },
        ],
        1000,
      ),
    ]).toEqual([
      [1, 0],
      [2, 0],
    ]);
  });
});

describe('refundForUnits', () => {
  it('splits a line of 3 units worth 1000 as 333 + 333 + 334, one unit at a time', () => {
    expect([refundForUnits(1000, 3, 0, 1), refundForUnits(1000, 3, 1, 1), refundForUnits(1000, 3, 2, 1)]).toEqual([
      333, 333, 334,
    ]);
  });

  it('splits it as 666 + 334 (two then one) and 333 + 667 (one then two)', () => {
    expect([refundForUnits(1000, 3, 0, 2), refundForUnits(1000, 3, 2, 1)]).toEqual([666, 334]);
    expect([refundForUnits(1000, 3, 0, 1), refundForUnits(1000, 3, 1, 2)]).toEqual([333, 667]);
  });

  it('answers the whole line for all its units', () => {
    expect(refundForUnits(1000, 3, 0, 3)).toBe(1000);
    expect(refundForUnits(6001, 2, 0, 2)).toBe(6001);
    expect([refundForUnits(6001, 2, 0, 1), refundForUnits(6001, 2, 1, 1)]).toEqual([3000, 3001]);
  });
});
