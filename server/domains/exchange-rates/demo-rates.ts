import type { Currency } from '../../shared/money';

/** The currency the demo rates are quoted against (units of each currency per one CNY). */
export const DEMO_RATES_BASE = 'CNY' satisfies Currency;

/**
 * When the demo rates were true. The seed stores this as their time rather than the moment it
 * ran, so a shop started from the seed sees them go stale after EXCHANGE_RATE_MAX_AGE_HOURS and
 * charges in the settlement currency until staff set real rates (ADR 0144).
 */
export const DEMO_RATES_AS_OF = new Date('2026-11-27T00:00:00Z');

/** The demo rates, units per CNY in millionths (RATE_SCALE). */
export const DEMO_RATE_MICROS: Readonly<Record<Exclude<Currency, typeof DEMO_RATES_BASE>, number>> = {
  USD: 138_900,
  EUR: 130_200,
  JPY: 21_370_000,
  GBP: 110_100,
  KRW: 196_850_000,
  AUD: 211_200,
  CAD: 192_100,
  HKD: 1_081_200,
};
