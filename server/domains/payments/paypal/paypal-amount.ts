import { formatAmount, isCurrency, MINOR_DIGITS, type Currency, type Money } from '../../../shared/money';
import type { AmountParts } from '../payment-provider';
import type { CreateOrderBody, PayPalMoney } from './paypal-client';

type PayPalAmount = CreateOrderBody['purchase_units'][number]['amount'];

function paypalMoney(amountMinor: number, currency: Currency): PayPalMoney {
  // formatAmount writes the currency's own number of decimals: '12.50' USD, '1280' JPY.
  return { currency_code: currency, value: formatAmount({ amountMinor, currency }) };
}

/**
 * The `amount` of a PayPal purchase unit. PayPal refuses an order whose breakdown does not add
 * up to the value to the cent (AMOUNT_MISMATCH), so every figure is written from integer minor
 * units, and item_total is what is left of the total once shipping and duties are taken out
 * and the discount put back: it adds up by construction, whatever rounding happened upstream.
 * If that remainder is negative the parts do not describe this total, and only the total is sent.
 */
export function paypalAmount(total: Money, parts: AmountParts | undefined): PayPalAmount {
  const amount = paypalMoney(total.amountMinor, total.currency);
  if (!parts) return amount;
  const itemTotal = total.amountMinor - parts.shippingMinor - parts.dutiesMinor + parts.discountMinor;
  if (itemTotal < 0 || parts.shippingMinor < 0 || parts.dutiesMinor < 0 || parts.discountMinor < 0) return amount;
  return {
    ...amount,
    breakdown: {
      item_total: paypalMoney(itemTotal, total.currency),
      ...(parts.shippingMinor > 0 && { shipping: paypalMoney(parts.shippingMinor, total.currency) }),
      ...(parts.discountMinor > 0 && { discount: paypalMoney(parts.discountMinor, total.currency) }),
      ...(parts.dutiesMinor > 0 && { tax_total: paypalMoney(parts.dutiesMinor, total.currency) }),
    },
  };
}

/**
 * Minor units of a PayPal amount ('12.50' USD -> 1250, '1280' JPY -> 1280), or undefined when
 * the currency is not one the shop knows or the value has more decimals than the currency.
 */
export function minorUnitsOf(amount: PayPalMoney | undefined): Money | undefined {
  if (!amount || !isCurrency(amount.currency_code)) return undefined;
  const digits = MINOR_DIGITS[amount.currency_code];
  const match = /^(\d{1,12})(?:\.(\d+))?$/.exec(amount.value);
  if (!match || (match[2]?.length ?? 0) > digits) return undefined;
  const fraction = (match[2] ?? '').padEnd(digits, '0');
  return { amountMinor: Number(match[1]) * 10 ** digits + Number(fraction || '0'), currency: amount.currency_code };
}
