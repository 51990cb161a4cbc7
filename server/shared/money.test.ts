import { describe, expect, it } from 'vitest';
import { amountView, convert, currencySymbol, formatAmount, formatPrice, rateText } from './money';

const rates = { CNY: 1, USD: 0.1389, EUR: 0.1302, JPY: 21.37, GBP: 0.1101 };

describe('money', () => {
  it('formats minor units without floating-point drift', () => {
    expect(formatAmount({ amountMinor: 1200, currency: 'USD' })).toBe('12.00');
    expect(formatAmount({ amountMinor: 5, currency: 'CNY' })).toBe('0.05');
    expect(formatAmount({ amountMinor: 1280, currency: 'JPY' })).toBe('1280');
    expect(formatAmount({ amountMinor: -1999, currency: 'GBP' })).toBe('-19.99');
  });

  it('formats symbol and Chinese unit styles (SPEC section 9)', () => {
    expect(formatPrice({ amountMinor: 1200, currency: 'USD' })).toBe('$12.00');
    expect(formatPrice({ amountMinor: 1200, currency: 'CNY' }, 'chinese')).toBe('12.00元');
    expect(formatPrice({ amountMinor: 1200, currency: 'CNY' }, 'symbol', 'zh-cn')).toBe('￥12.00');
    expect(formatPrice({ amountMinor: 980, currency: 'JPY' })).toBe('¥980');
    expect(formatPrice({ amountMinor: 250, currency: 'EUR' }, 'chinese')).toBe('2.50欧元');
    expect(formatPrice({ amountMinor: -250, currency: 'GBP' })).toBe('-£2.50');
  });

  it('writes CNY as CN¥ for every reader but a Chinese one, who would not take ￥ for the yen', () => {
    expect(currencySymbol('CNY', 'zh-cn')).toBe('￥');
    expect(currencySymbol('CNY', 'en')).toBe('CN¥');
    expect(currencySymbol('CNY')).toBe('CN¥');
    expect(currencySymbol('JPY', 'en')).toBe('¥');
    expect(currencySymbol('USD', 'zh-cn')).toBe('$');
    expect(formatPrice({ amountMinor: 1200, currency: 'CNY' }, 'symbol', 'en')).toBe('CN¥12.00');
    expect(formatPrice({ amountMinor: 1200, currency: 'CNY' })).toBe('CN¥12.00');
    expect(formatPrice({ amountMinor: -1200, currency: 'CNY' }, 'symbol', 'en')).toBe('-CN¥12.00');
  });

  it('converts with integer arithmetic and rounds half away from zero', () => {
    expect(convert({ amountMinor: 12900, currency: 'CNY' }, 'USD', rates)).toEqual({
      amountMinor: 1792,
      currency: 'USD',
    });
    expect(convert({ amountMinor: 12900, currency: 'CNY' }, 'JPY', rates)).toEqual({
      amountMinor: 2757,
      currency: 'JPY',
    });
    expect(convert({ amountMinor: 1792, currency: 'USD' }, 'CNY', rates).amountMinor).toBe(12901);
    expect(convert({ amountMinor: 100, currency: 'CNY' }, 'CNY', rates).amountMinor).toBe(100);
  });

  it('refuses to convert without a rate', () => {
    expect(() => convert({ amountMinor: 100, currency: 'CNY' }, 'USD', { ...rates, USD: 0 })).toThrow(RangeError);
  });
});

describe('amountView', () => {
  it('converts at the frozen rate into the display currency minor units', () => {
    expect(amountView(12_800, 'CNY', 'USD', 138_900)).toEqual({
      amount_minor: 12_800,
      amount: '128.00',
      display_amount_minor: 1_778,
      display_amount: '17.78',
    });
    expect(amountView(12_800, 'CNY', 'JPY', 21_370_000)).toMatchObject({
      display_amount_minor: 2_735,
      display_amount: '2735',
    });
    expect(amountView(12_800, 'CNY', 'CNY', 1_000_000)).toMatchObject({ display_amount_minor: 12_800 });
    expect(rateText(138_900)).toBe('0.138900');
  });
});
