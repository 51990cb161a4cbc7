/**
 * The names of the gateways and of the methods buyers pick, shared by the configuration,
 * the schema and the payments domain (server/domains/payments/payment-provider.ts says how
 * they fit together).
 */

/** The gateways the shop can take payments through. */
export const PAYMENT_PROVIDERS = ['sandbox', 'stripe', 'paypal', 'alipay'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

/** What a buyer picks on the pay page, in the order the page lists them; each is served by one configured provider. */
export const PAYMENT_METHODS = ['card', 'paypal', 'alipay', 'wechat_pay', 'sandbox'] as const;
export type PaymentMethodName = (typeof PAYMENT_METHODS)[number];

/** The methods the shop can ask Stripe Checkout for (its `payment_method_types`). */
export const STRIPE_PAYMENT_METHODS = ['card', 'alipay', 'wechat_pay'] as const satisfies readonly PaymentMethodName[];
