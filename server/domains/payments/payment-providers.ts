import type { Env } from '../../shared/env';
import type { PaymentProvider, PaymentProviderName } from './payment-provider';
import { createSandboxProvider } from './sandbox/sandbox-provider';
import { createStripeProvider } from './stripe-provider';

const built = new WeakMap<Env, Map<PaymentProviderName, PaymentProvider | null>>();

function build(env: Env, name: PaymentProviderName): PaymentProvider | null {
  if (name === 'sandbox') return createSandboxProvider(env.SANDBOX_WEBHOOK_SECRET);
  if (!env.STRIPE_SECRET_KEY || !env.STRIPE_WEBHOOK_SECRET) return null;
  return createStripeProvider({
    secretKey: env.STRIPE_SECRET_KEY,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET,
    apiBase: env.STRIPE_API_BASE,
  });
}

/**
 * A provider by name, or null when it is not configured. Refunds and webhooks of past
 * payments use the provider the payment was made with, which may not be today's choice.
 */
export function providerNamed(env: Env, name: PaymentProviderName): PaymentProvider | null {
  let cache = built.get(env);
  if (!cache) built.set(env, (cache = new Map()));
  if (!cache.has(name)) cache.set(name, build(env, name));
  return cache.get(name) ?? null;
}

/** The one provider new payments go to: PAYMENT_PROVIDER (loadEnv checks Stripe's keys are set). */
export function configuredProvider(env: Env): PaymentProvider {
  return providerNamed(env, env.PAYMENT_PROVIDER)!;
}
