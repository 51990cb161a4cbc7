import type { Locale } from '../../i18n/locales';
import type { AmountView } from './money.schemas';

/**
 * Money is an integer count of minor units plus an ISO 4217 code; floats never hold an
 * amount. Pure functions, shared by the server and the storefront.
 */
export const CURRENCIES = ['CNY', 'USD', 'EUR', 'JPY', 'GBP', 'KRW', 'AUD', 'CAD', 'HKD'] as const;
export type Currency = (typeof CURRENCIES)[number];

export interface Money {
  amountMinor: number;
  currency: Currency;
}

/**
 * Digits after the decimal point of each currency the shop shows (ISO 4217): 2 for most, 0 for
 * JPY and KRW. Written out rather than read from the full table in ./minor-units.ts, which only
 * the server needs (the storefront's JavaScript budget); money.test.ts checks that they agree.
 */
export const MINOR_DIGITS: Record<Currency, number> = {
  CNY: 2,
  USD: 2,
  EUR: 2,
  JPY: 0,
  GBP: 2,
  KRW: 0,
  AUD: 2,
  CAD: 2,
  HKD: 2,
};

/** SPEC section 9: the symbol form and the Chinese unit form of each currency. */
const CURRENCY_SYMBOLS: Record<Currency, string> = {
  CNY: '￥',
  USD: '$',
  EUR: '€',
  JPY: '¥',
  GBP: '£',
  KRW: '₩',
  AUD: 'A$',
  CAD: 'C$',
  HKD: 'HK$',
};
export const CURRENCY_UNITS_ZH: Record<Currency, string> = {
  CNY: '元',
  USD: '美元',
  EUR: '欧元',
  JPY: '日元',
  GBP: '英镑',
  KRW: '韩元',
  AUD: '澳元',
  CAD: '加元',
  HKD: '港元',
};

/**
 * The symbol a reader of `locale` takes for `currency`. Outside Chinese text '￥' reads as the
 * yen, so CNY is 'CN¥' there, and wherever the reader's language is unknown.
 */
export function currencySymbol(currency: Currency, locale?: Locale): string {
  return currency === 'CNY' && locale !== 'zh-cn' ? 'CN¥' : CURRENCY_SYMBOLS[currency];
}

export function isCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && (CURRENCIES as readonly string[]).includes(value);
}

/** Exchange rates are kept as integer millionths so conversion stays in integer arithmetic. */
export const RATE_SCALE = 1_000_000n;

export function rateToScaled(rate: number): bigint {
  return BigInt(Math.round(rate * Number(RATE_SCALE)));
}

/**
 * Converts an amount with `rates` given as units of each currency per one unit of the
 * settlement currency. Rounds half away from zero to the target's minor unit.
 */
export function convert(money: Money, to: Currency, rates: Record<Currency, number>): Money {
  if (money.currency === to) return money;
  const fromRate = rateToScaled(rates[money.currency]);
  const toRate = rateToScaled(rates[to]);
  if (fromRate <= 0n || toRate <= 0n) throw new RangeError(`no exchange rate for ${money.currency}->${to}`);
  const digitShift = MINOR_DIGITS[to] - MINOR_DIGITS[money.currency];
  let numerator = BigInt(money.amountMinor) * toRate;
  let denominator = fromRate;
  if (digitShift > 0) numerator *= 10n ** BigInt(digitShift);
  else if (digitShift < 0) denominator *= 10n ** BigInt(-digitShift);
  const negative = numerator < 0n;
  const absolute = negative ? -numerator : numerator;
  const rounded = (absolute * 2n + denominator) / (denominator * 2n);
  return { amountMinor: Number(negative ? -rounded : rounded), currency: to };
}

/** '12.00' for 1200 CNY minor units, '1280' for 1280 JPY. */
export function formatAmount(money: Money): string {
  const digits = MINOR_DIGITS[money.currency];
  const negative = money.amountMinor < 0;
  const absolute = Math.abs(money.amountMinor);
  if (digits === 0) return `${negative ? '-' : ''}${absolute}`;
  const scale = 10 ** digits;
  const major = Math.floor(absolute / scale);
  const minor = String(absolute % scale).padStart(digits, '0');
  return `${negative ? '-' : ''}${major}.${minor}`;
}

export type PriceStyle = 'symbol' | 'chinese';

/**
 * SPEC section 9's price display: '$12.00' (symbol) or '12.00美元' (chinese). The symbol form
 * is read in `locale` (`currencySymbol`): 'CN¥12.00' unless the text around it is Chinese.
 */
export function formatPrice(money: Money, style: PriceStyle = 'symbol', locale?: Locale): string {
  const amount = formatAmount(money);
  if (style === 'chinese') return `${amount}${CURRENCY_UNITS_ZH[money.currency]}`;
  const symbol = currencySymbol(money.currency, locale);
  return money.amountMinor < 0 ? `-${symbol}${amount.slice(1)}` : `${symbol}${amount}`;
}

/** An amount in the settlement currency and, converted, in the buyer's display currency. */
export function amountView(
  amountMinor: number,
  currency: Currency,
  displayCurrency: Currency,
  displayRateMicros: number,
): AmountView {
  // The frozen rate: display = settlement x rate, with the currencies' minor digits.
  const display = convert({ amountMinor, currency }, displayCurrency, {
    [currency]: 1,
    [displayCurrency]: displayRateMicros / Number(RATE_SCALE),
  } as Record<Currency, number>);
  return {
    amount_minor: amountMinor,
    amount: formatAmount({ amountMinor, currency }),
    display_amount_minor: display.amountMinor,
    display_amount: formatAmount(display),
  };
}

/** The frozen display rate as the API shows it: units of the display currency per settlement unit, six decimals. */
export function rateText(displayRateMicros: number): string {
  return (displayRateMicros / Number(RATE_SCALE)).toFixed(6);
}
