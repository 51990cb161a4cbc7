import { convert, formatAmount, MINOR_DIGITS, type Currency } from '../../../server/shared/money';
import type { DisplayCurrency } from '~/lib/currency';
import { PG_INTEGER_MAX } from '../../../server/shared/ids';

/**
 * The price filter speaks the buyer's display currency; the catalogue filters on the lowest
 * SKU price in the settlement currency (`price_min` / `price_max`, minor units). These pure
 * helpers translate between the two. Everything stays in integer minor units.
 */

/**
 * '17.5' (or '17,5') in USD -> 1750. Accepts digits with at most the currency's decimals ('1280' for JPY,
 * no decimals). Empty -> undefined; anything else -> null (the caller reports it).
 */
export function parseMajorAmount(text: string | undefined, currency: Currency): number | undefined | null {
  // A decimal comma ('17,50') is read as a decimal point; there are no thousands separators.
  const value = (text ?? '').trim().replace(',', '.');
  if (value === '') return undefined;
  const digits = MINOR_DIGITS[currency];
  const match = /^(\d{1,10})(?:\.(\d*))?$/.exec(value);
  if (!match) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > digits && /[1-9]/.test(fraction.slice(digits))) return null;
  const minor = Number(match[1]) * 10 ** digits + Number((fraction.slice(0, digits) || '0').padEnd(digits, '0'));
  return minor > PG_INTEGER_MAX ? null : minor;
}

/**
 * A bound typed in the display currency, as a settlement-currency bound that agrees with the
 * prices the buyer sees. Conversion rounds to the nearest minor unit, so a plain conversion
 * could exclude a product displayed exactly at the bound; instead:
 *   min: the smallest settlement amount whose displayed price is >= the typed minimum,
 *   max: the largest settlement amount whose displayed price is <= the typed maximum.
 * It starts from the direct conversion and steps by one settlement minor unit (conversion is
 * monotonic, so a few steps at most; capped for safety).
 */
export function settlementBound(displayMinor: number, display: DisplayCurrency, kind: 'min' | 'max'): number {
  const { settlement, currency, rates } = display;
  if (currency === settlement) return displayMinor;
  const shown = (amount: number) => convert({ amountMinor: amount, currency: settlement }, currency, rates).amountMinor;
  let amount = convert({ amountMinor: displayMinor, currency }, settlement, rates).amountMinor;
  for (let step = 0; step < 1000; step++) {
    if (kind === 'min') {
      if (amount > 0 && shown(amount - 1) >= displayMinor) amount--;
      else if (shown(amount) < displayMinor) amount++;
      else break;
    } else if (shown(amount + 1) <= displayMinor) amount++;
    else if (amount > 0 && shown(amount) > displayMinor) amount--;
    else break;
  }
  return Math.min(Math.max(amount, 0), PG_INTEGER_MAX);
}

/** A settlement bound shown in the display currency, for the filter inputs: 12900 CNY -> '17.92' (USD). */
export function displayAmountText(settlementMinor: number, display: DisplayCurrency): string {
  return formatAmount(
    convert({ amountMinor: settlementMinor, currency: display.settlement }, display.currency, display.rates),
  );
}
