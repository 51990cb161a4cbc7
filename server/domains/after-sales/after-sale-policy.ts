import type { Env } from '../../shared/env';
import type { AfterSaleReason } from '../../db/schema';

/**
 * The shop's after-sale rules that are not moves (ADR 0130): how long a buyer may ask, what a
 * case is worth back, and which reasons need photos or are open to final-sale items.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** EU member states plus the EEA, whose consumers have 14 days to withdraw (Directive 2011/83/EU art. 9). */
const FOURTEEN_DAY_COUNTRIES = new Set([
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU',
  'MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE', 'IS', 'LI', 'NO',
  // The UK kept the 14 days (Consumer Contracts Regulations 2013, reg. 30).
  'GB',
]); // prettier-ignore

/**
 * Days the law of the buyer's country gives them to return goods bought at a distance, counted
 * from delivery: 7 in China (Consumer Rights Protection Law art. 25), 14 in the EU, EEA and UK;
 * elsewhere the shop's own policy decides.
 */
export function legalWindowDays(countryCode: string): number {
  if (countryCode === 'CN') return 7;
  return FOURTEEN_DAY_COUNTRIES.has(countryCode) ? 14 : 0;
}

/** The shop's window for a destination: its own policy, never below that country's law. */
export function windowDays(env: Pick<Env, 'AFTER_SALE_WINDOW_DAYS'>, countryCode: string): number {
  return Math.max(env.AFTER_SALE_WINDOW_DAYS, legalWindowDays(countryCode));
}

/**
 * When the window closes: `windowDays` after delivery (the carrier's delivered event, else the
 * buyer's confirmation of receipt). Null while the goods have not arrived: the window has not
 * begun, so the buyer may still ask.
 */
export function windowEndsAt(
  env: Pick<Env, 'AFTER_SALE_WINDOW_DAYS'>,
  order: { deliveredAt: Date | null; receivedAt: Date | null; address: { country_code: string } },
): Date | null {
  const delivered = order.deliveredAt ?? order.receivedAt;
  if (!delivered) return null;
  return new Date(delivered.getTime() + windowDays(env, order.address.country_code) * DAY_MS);
}

/** Reasons that are the shop's fault: photos are required, and final-sale items are still covered. */
const FAULT_REASONS: readonly AfterSaleReason[] = ['damaged', 'wrong_item', 'not_as_described'];

export function needsPhotos(reason: AfterSaleReason): boolean {
  return FAULT_REASONS.includes(reason);
}

/** A final-sale item can only be taken back when it is the shop's fault. */
export function finalSaleCovers(reason: AfterSaleReason): boolean {
  return FAULT_REASONS.includes(reason);
}

export const AFTER_SALE_MAX_PHOTOS = 9;
/** A rejected case may be appealed once within this many days of the rejection. */
export const APPEAL_DAYS = 7;

export function daysFrom(start: Date, days: number): Date {
  return new Date(start.getTime() + days * DAY_MS);
}

/**
 * Shares an order's discount out over its lines in proportion to their totals, the remainder
 * cent by cent to the largest fractions, so the shares always add up to the discount exactly.
 * Answers each line's worth back in full: its total less its share.
 */
export function lineRefunds(
  lines: ReadonlyArray<{ id: number; lineTotalMinor: number }>,
  discountMinor: number,
): Map<number, number> {
  const goods = lines.reduce((sum, line) => sum + line.lineTotalMinor, 0);
  const shares = lines.map((line) => {
    const exact = goods === 0 ? 0 : (discountMinor * line.lineTotalMinor) / goods;
    return { id: line.id, share: Math.floor(exact), fraction: exact - Math.floor(exact), total: line.lineTotalMinor };
  });
  let remainder = Math.min(discountMinor, goods) - shares.reduce((sum, line) => sum + line.share, 0);
  for (const line of [...shares].sort((a, b) => b.fraction - a.fraction || a.id - b.id)) {
    if (remainder <= 0) break;
    line.share += 1;
    remainder -= 1;
  }
  return new Map(shares.map((line) => [line.id, Math.max(0, line.total - line.share)]));
}

/**
 * What `units` units of a line are worth back, when `unitsBefore` of its `lineUnits` were
 * already counted by earlier cases. Cumulative flooring: however a line is split across cases,
 * the parts add up to the whole line exactly.
 */
export function refundForUnits(lineRefund: number, lineUnits: number, unitsBefore: number, units: number): number {
  const upTo = (count: number) => Math.floor((lineRefund * count) / lineUnits);
  return upTo(unitsBefore + units) - upTo(unitsBefore);
}
