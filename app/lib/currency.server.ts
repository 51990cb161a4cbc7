import type { Currency } from '../../server/shared/money';
import { isCurrency } from '../../server/shared/money';
import { DISPLAY_CURRENCY_COOKIE, type DisplayCurrency } from './currency';
import { requestCookies } from './request-cookies.server';

/** A request's display currency: the buyer's choice (cookie) where it is one we show, else the settlement currency. */
export function displayCurrencyOf(
  request: Request,
  settings: { currency: Currency; exchange_rates: Record<Currency, number> },
): DisplayCurrency {
  const chosen = requestCookies(request)[DISPLAY_CURRENCY_COOKIE];
  return {
    settlement: settings.currency,
    currency: isCurrency(chosen) ? chosen : settings.currency,
    rates: settings.exchange_rates,
  };
}
