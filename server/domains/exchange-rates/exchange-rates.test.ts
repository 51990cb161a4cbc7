import { describe, expect, it } from 'vitest';
import { isStale, rateMicrosOf, rateValues, type ExchangeRate } from './exchange-rates.service';

const env = { EXCHANGE_RATE_MAX_AGE_HOURS: 72 } as Parameters<typeof isStale>[0]['env'];
const row = (currency: ExchangeRate['currency'], rateMicros: number): ExchangeRate => ({
  currency,
  rateMicros,
  source: 'ECB reference rate 2026-11-27',
  setAt: new Date('2026-11-27T09:00:00Z'),
  setBy: '7',
});

describe('exchange rates', () => {
  it('reads a rate as written, without floating point', () => {
    expect(rateMicrosOf('21.37')).toBe(21_370_000);
    expect(rateMicrosOf('0.138900')).toBe(138_900);
    expect(rateMicrosOf('196.85')).toBe(196_850_000);
    expect(rateMicrosOf('1.0000001')).toBeNaN();
    expect(rateMicrosOf('-1')).toBeNaN();
    expect(rateMicrosOf('1e3')).toBeNaN();
  });

  it('is stale once older than EXCHANGE_RATE_MAX_AGE_HOURS', () => {
    const setAt = new Date('2026-11-24T09:00:00Z');
    expect(isStale({ env }, { setAt }, new Date('2026-11-27T09:00:00Z'))).toBe(false);
    expect(isStale({ env }, { setAt }, new Date('2026-11-27T09:00:01Z'))).toBe(true);
  });

  it('gives conversion the stored rates, 1 for the settlement currency and the fallback for a currency with no row', () => {
    const fallback = { CNY: 1, USD: 0.14, EUR: 0.13, JPY: 21, GBP: 0.11, KRW: 190, AUD: 0.21, CAD: 0.19, HKD: 1.08 };
    expect(rateValues([row('JPY', 21_456_700), row('CNY', 5)], 'CNY', fallback)).toEqual({
      ...fallback,
      JPY: 21.4567,
      CNY: 1,
    });
  });
});
