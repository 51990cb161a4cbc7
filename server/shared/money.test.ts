import { describe, expect, it } from 'vitest';
import { amountView, convert, currencySymbol, formatAmount, formatPrice, MINOR_DIGITS, rateText } from './money';
import { ISO_MINOR_UNITS, minorDigitsOf } from './minor-units';

const rates = {
  CNY: 1,
  USD: 0.1389,
  EUR: 0.1302,
  JPY: 21.37,
  GBP: 0.1101,
  KRW: 196.85,
  AUD: 0.2112,
  CAD: 0.1921,
  HKD: 1.0812,
};

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

  it('knows the ISO 4217 minor unit of every currency it shows and refuses to guess one it does not know', () => {
    expect(MINOR_DIGITS).toEqual({ CNY: 2, USD: 2, EUR: 2, JPY: 0, GBP: 2, KRW: 0, AUD: 2, CAD: 2, HKD: 2 });
    // The storefront's own short table agrees with the full one the gateways read.
    for (const [code, digits] of Object.entries(MINOR_DIGITS)) expect(minorDigitsOf(code), code).toBe(digits);
    expect([
      ISO_MINOR_UNITS.VND,
      ISO_MINOR_UNITS.CLP,
      ISO_MINOR_UNITS.KWD,
      ISO_MINOR_UNITS.BHD,
      ISO_MINOR_UNITS.SGD,
    ]).toEqual([0, 0, 3, 3, 2]);
    expect(() => minorDigitsOf('XYZ')).toThrow(RangeError);
  });

  it('writes the added display currencies with their own symbol and Chinese unit', () => {
    expect(formatPrice({ amountMinor: 19_685, currency: 'KRW' })).toBe('₩19685');
    expect(formatPrice({ amountMinor: 19_685, currency: 'KRW' }, 'chinese')).toBe('19685韩元');
    expect(formatPrice({ amountMinor: 2_112, currency: 'AUD' })).toBe('A$21.12');
    expect(formatPrice({ amountMinor: 1_921, currency: 'CAD' }, 'chinese')).toBe('19.21加元');
    expect(formatPrice({ amountMinor: 10_812, currency: 'HKD' })).toBe('HK$108.12');
  });

  it('converts CNY to the zero-decimal currencies without a factor of 100', () => {
    // CNY 100.00 at 196.85 won per yuan is 19,685 won; at 21.37 yen, 2,137 yen.
    expect(amountView(10_000, 'CNY', 'KRW', 196_850_000).display_amount_minor).toBe(19_685);
    expect(amountView(10_000, 'CNY', 'JPY', 21_370_000).display_amount_minor).toBe(2_137);
    expect(convert({ amountMinor: 19_685, currency: 'KRW' }, 'CNY', rates)).toEqual({
      amountMinor: 10_000,
      currency: 'CNY',
    });
  });
});
