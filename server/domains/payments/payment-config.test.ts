import { describe, expect, it } from 'vitest';
import { InsecureConfigError, loadEnv, type ConfiguredEnv, type Env } from '../../shared/env';
import { configuredProvider, providerNamed } from './payment-providers';

/** The configuration as the running shop sees it, once the app context has settled the secrets. */
const running = (configured: ConfiguredEnv): Env => ({
  ...configured,
  SESSION_SECRET: 'payment-config-test-session-secret-xxxxxxxx',
  SANDBOX_WEBHOOK_SECRET: 'payment-config-test-webhook-secret-xxxxxxxx',
});

describe('payment configuration', () => {
  it('defaults to the sandbox gateway', () => {
    const env = running(loadEnv({ NODE_ENV: 'test' }));
    expect(env.PAYMENT_PROVIDER).toBe('sandbox');
    expect(configuredProvider(env).name).toBe('sandbox');
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
    expect(configuredProvider(env).name).toBe('stripe');
  });

  it('refuses an unknown provider and a short sandbox secret', () => {
    expect(() => loadEnv({ NODE_ENV: 'test', PAYMENT_PROVIDER: 'paypal' })).toThrow(/PAYMENT_PROVIDER/);
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
