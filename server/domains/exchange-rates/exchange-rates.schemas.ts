import { z } from 'zod';
import { CURRENCIES } from '../../shared/money';

/** A rate as people write it: units of the currency per one settlement unit, at most six decimals ("21.37"). */
export const RATE_TEXT = /^\d{1,7}(?:\.\d{1,6})?$/;

/** `PUT /v1/admin/exchange-rates/:currency`: the console's rate form. */
export const exchangeRateBody = z.strictObject({
  rate: z.string().trim().regex(RATE_TEXT).describe('units of the currency per one settlement unit, e.g. "21.37"'),
  source: z
    .string()
    .trim()
    .min(2)
    .max(200)
    .describe('where the figure comes from, e.g. "ECB reference rate 2026-11-27"'),
});
export type ExchangeRateBody = z.infer<typeof exchangeRateBody>;

export const exchangeRateParams = z.object({ currency: z.enum(CURRENCIES) });

export const exchangeRateView = z.object({
  currency: z.enum(CURRENCIES),
  rate: z.string().describe('units per settlement unit, six decimals'),
  rate_micros: z.number().int().describe('the same in millionths'),
  source: z.string(),
  set_at: z.string().describe('ISO 8601'),
  set_by: z.string().describe("the staff member's email in the list (their id when set), 'seed' or 'migration'"),
  stale: z
    .boolean()
    .describe('set longer ago than EXCHANGE_RATE_MAX_AGE_HOURS: buyers are charged in the settlement currency'),
});
export type ExchangeRateView = z.infer<typeof exchangeRateView>;

/** `GET /v1/admin/exchange-rates`. */
export const exchangeRatesView = z.object({
  settlement_currency: z.enum(CURRENCIES),
  max_age_hours: z.number().int(),
  rates: z.array(exchangeRateView),
});
export type ExchangeRatesView = z.infer<typeof exchangeRatesView>;
