import { describe, expect, it } from 'vitest';
import { InsecureConfigError, loadEnv, type ConfiguredEnv, type Env } from '../../shared/env';
import { offeredMethods, paymentProviders, providerNamed } from './payment-providers';

/** The configuration as the running shop sees it, once the app context has settled the secrets. */
const running = (configured: ConfiguredEnv): Env => ({
  ...configured,
  SESSION_SECRET: 'payment-config-test-session-secret-xxxxxxxx',
  SANDBOX_WEBHOOK_SECRET: 'payment-config-test-webhook-secret-xxxxxxxx',
});

describe('payment configuration', () => {
  it('defaults to the sandbox gateway', () => {
    const env = running(loadEnv({ NODE_ENV: 'test' }));
    expect(paymentProviders(env).map((provider) => provider.name)).toEqual(['sandbox']);
    expect(providerNamed(env, 'stripe')).toBeNull();
  });

  it('refuses PAYMENT_PROVIDER=stripe without both Stripe keys', () => {
    expect(() => loadEnv({ NODE_ENV: 'test', PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(
      /STRIPE_WEBHOOK_SECRET/,
    );
    const env = running(
      loadEnv({
        NODE_ENV: 'test',
        PAYMENT_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_x',
        STRIPE_WEBHOOK_SECRET: 'whsec_x',
      }),
    );
    expect(paymentProviders(env).map((provider) => provider.name)).toEqual(['stripe']);
  });

  it('takes payments with every configured provider; the sandbox steps aside once a real one is set, unless forced', () => {
    const stripeKeys = { NODE_ENV: 'test', STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
    const names = (source: Record<string, string>) =>
      paymentProviders(running(loadEnv(source))).map((provider) => provider.name);
    expect(names(stripeKeys)).toEqual(['stripe']);
    expect(names({ ...stripeKeys, SANDBOX_PAYMENTS: 'on' })).toEqual(['stripe', 'sandbox']);
    expect(names({ NODE_ENV: 'test', SANDBOX_PAYMENTS: 'off' })).toEqual([]);
    // The older single choice still names the one provider new payments go to.
    expect(names({ ...stripeKeys, PAYMENT_PROVIDER: 'sandbox' })).toEqual(['sandbox']);
    expect(() => loadEnv({ NODE_ENV: 'test', PAYMENT_PROVIDER: 'sandbox', SANDBOX_PAYMENTS: 'off' })).toThrow(
      /SANDBOX_PAYMENTS=off/,
    );
  });

  it('offers each method once, in the pay page order, limited to what Stripe takes and the shop turned on', () => {
    const env = running(
      loadEnv({
        NODE_ENV: 'test',
        STRIPE_SECRET_KEY: 'sk_test_x',
        STRIPE_WEBHOOK_SECRET: 'whsec_x',
        SANDBOX_PAYMENTS: 'on',
        STRIPE_PAYMENT_METHODS: 'wechat_pay, card',
      }),
    );
    const offered = (currency: 'CNY' | 'USD', country: string) =>
      offeredMethods(env, { currency, country }).map((offer) => `${offer.method}:${offer.provider.name}`);
    expect(offered('USD', 'DE')).toEqual(['card:stripe', 'wechat_pay:stripe', 'sandbox:sandbox']);
    expect(() => loadEnv({ NODE_ENV: 'test', STRIPE_PAYMENT_METHODS: 'card,bitcoin' })).toThrow(
      /STRIPE_PAYMENT_METHODS/,
    );
  });

  it('refuses an unknown provider and a short sandbox secret', () => {
    expect(() => loadEnv({ NODE_ENV: 'test', PAYMENT_PROVIDER: 'bitcoin' })).toThrow(/PAYMENT_PROVIDER/);
    expect(() => loadEnv({ NODE_ENV: 'test', SANDBOX_WEBHOOK_SECRET: 'short' })).toThrow(/SANDBOX_WEBHOOK_SECRET/);
  });

  it('honours STRIPE_API_BASE outside production only', () => {
    expect(loadEnv({ NODE_ENV: 'test', STRIPE_API_BASE: 'http://127.0.0.1:12111' }).STRIPE_API_BASE).toBe(
      'http://127.0.0.1:12111',
    );
    expect(() => loadEnv({ NODE_ENV: 'production', STRIPE_API_BASE: 'http://127.0.0.1:12111' })).toThrow(
      InsecureConfigError,
    );
  });
});
