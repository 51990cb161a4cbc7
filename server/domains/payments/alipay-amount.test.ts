import { describe, expect, it } from 'vitest';
import { fenOf, yuanText } from './alipay-amount';

describe('Alipay amounts (yuan text from integer fen and back)', () => {
  it('writes fen as yuan with exactly two decimals', () => {
    expect(yuanText(0)).toBe('0.00');
    expect(yuanText(1)).toBe('0.01');
    expect(yuanText(10)).toBe('0.10');
    expect(yuanText(12_345)).toBe('123.45');
    expect(yuanText(100_000_000)).toBe('1000000.00');
    // 0.1 + 0.2 style float drift cannot happen: 1,234,567,891 fen is written digit for digit.
    expect(yuanText(1_234_567_891)).toBe('12345678.91');
  });

  it('refuses what is not a whole, non-negative number of fen', () => {
    expect(() => yuanText(12.5)).toThrow(RangeError);
    expect(() => yuanText(-1)).toThrow(RangeError);
    expect(() => yuanText(Number.NaN)).toThrow(RangeError);
  });

  it('reads what Alipay sends back, and nothing that is not a plain amount', () => {
    expect(fenOf('123.45')).toBe(12_345);
    expect(fenOf('88')).toBe(8_800);
    expect(fenOf('88.5')).toBe(8_850);
    expect(fenOf('0.01')).toBe(1);
    for (const bad of ['', '1.234', '-1.00', '1e3', ' 1.00', '1,000.00', '.5', undefined, null])
      expect(fenOf(bad)).toBeNull();
  });
});
