import type { MessageKey, Translate } from '../../../i18n';
import type { Locale } from '../../../i18n/locales';
import { MINOR_DIGITS, isCurrency } from '../../../server/shared/money';

/** Dates, times and money in the member's language; money in the order's own currency. */

const intlLocale = (locale: Locale) => (locale === 'zh-cn' ? 'zh-CN' : 'en-GB');

function minorDigits(currency: string): number {
  return isCurrency(currency) ? MINOR_DIGITS[currency] : 2;
}

export function formatMoney(minor: number, currency: string, locale: Locale): string {
  const digits = minorDigits(currency);
  return new Intl.NumberFormat(intlLocale(locale), {
    style: 'currency',
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(minor / 10 ** digits);
}

/** A typed amount in major units ("12.5") as integer minor units of `currency`; null when it is not a number. */
export function majorToMinor(text: string, currency: string): number | null {
  const digits = minorDigits(currency);
  const trimmed = text.trim().replace(/,/g, '');
  const pattern = digits === 0 ? /^\d+$/ : new RegExp(`^\\d+(?:\\.\\d{1,${digits}})?$`);
  if (!pattern.test(trimmed)) return null;
  const [whole = '0', fraction = ''] = trimmed.split('.');
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}

export function minorToMajorText(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  return (minor / 10 ** digits).toFixed(digits);
}

export function formatDateTime(iso: string | null | undefined, locale: Locale): string {
  if (!iso) return '—';
  return new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

export function formatDay(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(intlLocale(locale), { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
    new Date(iso),
  );
}

/** Message keys that have a singular form under `<key>.one`. */
export type CountedKey = { [K in MessageKey]: `${K}.one` extends MessageKey ? K : never }[MessageKey];

/**
 * "1 order matches", "2 orders match": English has a singular, so counted texts keep it under
 * `<key>.one` (Chinese repeats the same text there).
 */
export function countText(t: Translate, key: CountedKey, count: number): string {
  return t(count === 1 ? (`${key}.one` as MessageKey) : key, { count });
}
