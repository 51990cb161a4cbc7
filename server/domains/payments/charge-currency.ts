import { ISO_MINOR_UNITS } from '../../shared/minor-units';
import type { Currency } from '../../shared/money';
import type { PaymentMethodName, PaymentProviderName } from '../../shared/payment-methods';
import type { PaymentProvider } from './payment-provider';

/*
 * Which currency a payment is charged in (ADR 0144): the buyer's display currency where the
 * provider's method takes it, at the rate frozen on the order; else the settlement currency;
 * else the method is not offered for the order. Providers' `methodsFor` read the table below.
 */

/** Every currency, for gateways that take whatever the shop shows (the sandbox; Stripe cards). */
type Accepted = ReadonlySet<string> | 'any';

const set = (codes: string): ReadonlySet<string> => new Set(codes.split(' '));

/**
 * The currencies each provider charges with each of its methods.
 * - Stripe cards: every currency in the shop's minor-unit table (Stripe's list of 135+
 *   presentment currencies covers them all).
 * - Stripe Alipay and WeChat Pay: the "Determine compatibility" table of each method's guide
 *   (docs.stripe.com/payments/alipay, /wechat-pay).
 * - PayPal: its list of currency codes (developer.paypal.com/api/rest/reference/currency-codes)
 *   without CNY and MYR (in-country accounts only) and HUF and TWD (whole units only at PayPal,
 *   two decimals in ISO 4217); no KRW.
 * - Alipay directly: CNY (a mainland merchant settles in yuan).
 */
export const ACCEPTED_CURRENCIES: Record<PaymentProviderName, Partial<Record<PaymentMethodName, Accepted>>> = {
  sandbox: { sandbox: 'any' },
  stripe: {
    card: new Set(Object.keys(ISO_MINOR_UNITS)),
    alipay: set('AUD CAD CNY EUR GBP HKD JPY NZD SGD USD MYR'),
    wechat_pay: set('AUD CAD CNY EUR GBP HKD JPY SGD USD DKK NOK SEK CHF'),
  },
  paypal: { paypal: set('AUD BRL CAD CHF CZK DKK EUR GBP HKD ILS JPY MXN NOK NZD PHP PLN SEK SGD THB USD') },
  alipay: { alipay: set('CNY') },
};

/** Whether `provider` charges `currency` with `method`. */
export function chargesIn(provider: PaymentProviderName, method: PaymentMethodName, currency: Currency): boolean {
  const accepted = ACCEPTED_CURRENCIES[provider][method];
  return accepted === 'any' || (accepted?.has(currency) ?? false);
}

/**
 * The one rule of which currency a payment is charged in (ADR 0144): the buyer's display
 * currency where this provider takes it with this method for this buyer, else the settlement
 * currency, else null (the provider does not offer the method for the order).
 */
export function chargeCurrencyFor(
  provider: Pick<PaymentProvider, 'methodsFor'>,
  method: PaymentMethodName,
  order: { displayCurrency: Currency; settlementCurrency: Currency; country: string },
): Currency | null {
  for (const currency of [order.displayCurrency, order.settlementCurrency])
    if (provider.methodsFor({ currency, country: order.country }).includes(method)) return currency;
  return null;
}
