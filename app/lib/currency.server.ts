import type { Currency } from '../../server/shared/money';
import { isCurrency } from '../../server/shared/money';
import { DISPLAY_CURRENCY_COOKIE, type DisplayCurrency } from './currency';
import { requestCookies } from './request-cookies.server';

/** A request's display currency: the buyer's choice (cookie) where the owner offers it, else the settlement currency. */
export function displayCurrencyOf(
  request: Request,
  settings: { currency: Currency; exchange_rates: Record<Currency, number>; display_currencies: readonly Currency[] },
): DisplayCurrency {
  const chosen = requestCookies(request)[DISPLAY_CURRENCY_COOKIE];
  // A currency the owner stopped offering falls back to the settlement currency.
  const offered = isCurrency(chosen) && settings.display_currencies.includes(chosen);
  return {
    settlement: settings.currency,
    currency: offered ? chosen : settings.currency,
    rates: settings.exchange_rates,
  };
}
