import { useRouteLoaderData } from 'react-router';
import { convert, CURRENCIES, formatPrice, type Currency, type PriceStyle } from '../../server/shared/money';
import type { Locale } from '../../i18n/locales';

/** The buyer's display currency; part of the page-cache key (server/http/storefront.ts). */
export const DISPLAY_CURRENCY_COOKIE = 'currency';
export const DISPLAY_CURRENCY_MAX_AGE = 365 * 24 * 60 * 60;

export interface DisplayCurrency {
  settlement: Currency;
  currency: Currency;
  rates: Record<Currency, number>;
}

export function useDisplayCurrency(): DisplayCurrency {
  const data = useRouteLoaderData('root') as { display?: DisplayCurrency } | undefined;
  return (
    data?.display ?? {
      settlement: 'CNY',
      currency: 'CNY',
      rates: Object.fromEntries(CURRENCIES.map((code) => [code, 1])) as Record<Currency, number>,
    }
  );
}

/** Chinese pages show the unit form ('129.00元'), English pages the symbol form ('CN¥129.00'). */
export function priceStyleFor(locale: Locale): PriceStyle {
  return locale === 'zh-cn' ? 'chinese' : 'symbol';
}

/**
 * A settlement-currency amount as the buyer should see it. `approximate` is true when it
 * was converted: the buyer is charged in the settlement currency, so the page marks it '≈'.
 */
export function displayPrice(amountMinor: number, display: DisplayCurrency, locale: Locale) {
  const converted = convert({ amountMinor, currency: display.settlement }, display.currency, display.rates);
  return {
    text: formatPrice(converted, priceStyleFor(locale)),
    approximate: display.currency !== display.settlement,
    money: converted,
  };
}
