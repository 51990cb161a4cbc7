import type { Env } from '../../shared/env';
import type { Currency } from '../../shared/money';
import { chargeCurrencyFor } from './charge-currency';
import {
  PAYMENT_METHODS,
  PAYMENT_PROVIDERS,
  type MethodQuery,
  type PaymentMethodName,
  type PaymentProvider,
  type PaymentProviderName,
} from './payment-provider';
import { createPayPalProvider } from './paypal-provider';
import { alipayOptions, createAlipayProvider } from './alipay-provider';
import { createSandboxProvider } from './sandbox/sandbox-provider';
import { createStripeProvider } from './stripe-provider';

const built = new WeakMap<Env, Map<PaymentProviderName, PaymentProvider | null>>();

/** A provider from its keys, or null when they are not set. Each provider adds its branch here. */
function build(env: Env, name: PaymentProviderName): PaymentProvider | null {
  switch (name) {
    case 'sandbox':
      return createSandboxProvider(env.SANDBOX_WEBHOOK_SECRET);
    case 'stripe':
      if (!env.STRIPE_SECRET_KEY || !env.STRIPE_WEBHOOK_SECRET) return null;
      return createStripeProvider({
        secretKey: env.STRIPE_SECRET_KEY,
        webhookSecret: env.STRIPE_WEBHOOK_SECRET,
        apiBase: env.STRIPE_API_BASE,
        methods: env.STRIPE_PAYMENT_METHODS,
      });
    case 'paypal':
      if (!env.PAYPAL_CLIENT_ID || !env.PAYPAL_CLIENT_SECRET || !env.PAYPAL_WEBHOOK_ID) return null;
      return createPayPalProvider({
        clientId: env.PAYPAL_CLIENT_ID,
        clientSecret: env.PAYPAL_CLIENT_SECRET,
        webhookId: env.PAYPAL_WEBHOOK_ID,
        environment: env.PAYPAL_ENVIRONMENT,
        apiBase: env.PAYPAL_API_BASE,
      });
    case 'alipay': {
      const options = alipayOptions(env);
      return options && createAlipayProvider(options);
    }
  }
}

/**
 * A provider by name, or null when it is not configured. Webhooks, refunds and lookups of
 * past payments use the provider the payment was made with, which may no longer take new ones.
 */
export function providerNamed(env: Env, name: PaymentProviderName): PaymentProvider | null {
  let cache = built.get(env);
  if (!cache) built.set(env, (cache = new Map()));
  if (!cache.has(name)) cache.set(name, build(env, name));
  return cache.get(name) ?? null;
}

/** Whether the sandbox takes payments: forced on or off, or (auto) while no real provider is configured. */
export function sandboxPaymentsOn(env: Env): boolean {
  if (env.PAYMENT_PROVIDER) return env.PAYMENT_PROVIDER === 'sandbox';
  if (env.SANDBOX_PAYMENTS !== 'auto') return env.SANDBOX_PAYMENTS === 'on';
  return PAYMENT_PROVIDERS.every((name) => name === 'sandbox' || !providerNamed(env, name));
}

/**
 * The providers new payments may go to, dedicated gateways before those that also serve
 * others' methods (Alipay directly before Alipay through Stripe). PAYMENT_PROVIDER, when set,
 * names the only one.
 */
export function paymentProviders(env: Env): PaymentProvider[] {
  const preference: PaymentProviderName[] = ['alipay', 'paypal', 'stripe', 'sandbox'];
  return preference
    .filter((name) => (env.PAYMENT_PROVIDER ? name === env.PAYMENT_PROVIDER : true))
    .filter((name) => name !== 'sandbox' || sandboxPaymentsOn(env))
    .map((name) => providerNamed(env, name))
    .filter((provider) => provider !== null);
}

/** One method the buyer can choose, the provider that takes it, and the currency it charges. */
export interface OfferedMethod {
  method: PaymentMethodName;
  provider: PaymentProvider;
  chargeCurrency: Currency;
}

/**
 * The methods offered for an order to a buyer in this country, in the pay page's order
 * (PAYMENT_METHODS); each method once, taken by the first provider that charges it in the
 * buyer's display currency or in the settlement currency (`query.currency`), and charged in
 * the first of those two it takes (chargeCurrencyFor). Without a display currency: the
 * settlement currency alone.
 */
export function offeredMethods(env: Env, query: MethodQuery & { displayCurrency?: Currency }): OfferedMethod[] {
  const providers = paymentProviders(env);
  const order = {
    displayCurrency: query.displayCurrency ?? query.currency,
    settlementCurrency: query.currency,
    country: query.country,
  };
  return PAYMENT_METHODS.flatMap((method) => {
    for (const provider of providers) {
      const chargeCurrency = chargeCurrencyFor(provider, method, order);
      if (chargeCurrency) return [{ method, provider, chargeCurrency }];
    }
    return [];
  });
}
