import { describe, expect, it } from 'vitest';
import { checkPostalCode, postalCodeRequired } from './postal-codes';

describe('checkPostalCode', () => {
  it.each([
    ['NL', '1012js', '1012 JS'],
    ['IE', 'd02x285', 'D02 X285'],
    ['SE', '114 55', '11455'],
    ['KR', '03187', '03187'],
    ['PT', '1100-148', '1100-148'],
  ])('%s takes %j as %j', (country, typed, stored) => {
    expect(checkPostalCode(country, typed)).toEqual({ ok: true, postalCode: stored });
  });

  it('names the expected shape, by digits or by example, and falls back to a plain message', () => {
    expect(checkPostalCode('PT', '1100148')).toEqual({
      ok: false,
      message: 'address.postalCodeLike',
      params: { example: '1100-148' },
    });
    expect(checkPostalCode('KR', '1234')).toEqual({
      ok: false,
      message: 'address.postalCodeDigits',
      params: { digits: 5, example: '03187' },
    });
    // Greece has a pattern but no example of ours.
    expect(checkPostalCode('GR', 'ABC')).toEqual({ ok: false, message: 'address.postalCodeInvalid', params: {} });
    expect(checkPostalCode('GR', '')).toEqual({ ok: false, message: 'address.postalCodeRequired', params: {} });
  });

  it('leaves the code optional where a country has none, but keeps it plain text', () => {
    expect(postalCodeRequired('HK')).toBe(false);
    expect(postalCodeRequired('MO')).toBe(false);
    expect(postalCodeRequired('DE')).toBe(true);
    expect(checkPostalCode('MO', undefined)).toEqual({ ok: true, postalCode: '' });
    expect(checkPostalCode('AE', ' 12 345 ')).toEqual({ ok: true, postalCode: '12 345' });
    expect(checkPostalCode('AE', '12/345').ok).toBe(false);
  });
});
