import { describe, expect, it } from 'vitest';
import { InsecureConfigError, loadEnv, type ConfiguredEnv, type Env } from '../../shared/env';
import { offeredMethods, providerNamed } from './payment-providers';

const running = (configured: ConfiguredEnv): Env => ({
  ...configured,
  SESSION_SECRET: 'paypal-config-test-session-secret-xxxxxxxxx',
  SANDBOX_WEBHOOK_SECRET: 'paypal-config-test-webhook-secret-xxxxxxxxx',
});

const keys = {
  PAYPAL_CLIENT_ID: 'AbCd-client-id',
  PAYPAL_CLIENT_SECRET: 'EfGh-client-secret',
  PAYPAL_WEBHOOK_ID: '8PT597110X687430LKGECATA',
};

describe('paypal configuration', () => {
  it('turns PayPal on with its three keys, against PayPal live unless told sandbox', () => {
    expect(providerNamed(running(loadEnv({ NODE_ENV: 'test' })), 'paypal')).toBeNull();
    const env = loadEnv({ NODE_ENV: 'test', ...keys });
    expect(env.PAYPAL_ENVIRONMENT).toBe('live');
    expect(loadEnv({ NODE_ENV: 'test', ...keys, PAYPAL_ENVIRONMENT: 'sandbox' }).PAYPAL_ENVIRONMENT).toBe('sandbox');
    const methods = offeredMethods(running(env), { currency: 'USD', country: 'DE' });
    expect(methods.map((offer) => [offer.method, offer.provider.name])).toEqual([['paypal', 'paypal']]);
  });

  it('refuses one or two of the keys, and PAYMENT_PROVIDER=paypal without them', () => {
    expect(() => loadEnv({ NODE_ENV: 'test', PAYPAL_CLIENT_ID: keys.PAYPAL_CLIENT_ID })).toThrow(/PAYPAL_WEBHOOK_ID/);
    expect(() =>
      loadEnv({
        NODE_ENV: 'test',
        PAYPAL_CLIENT_ID: keys.PAYPAL_CLIENT_ID,
        PAYPAL_CLIENT_SECRET: keys.PAYPAL_CLIENT_SECRET,
      }),
    ).toThrow(/PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET and PAYPAL_WEBHOOK_ID together/);
    expect(() => loadEnv({ NODE_ENV: 'test', PAYMENT_PROVIDER: 'paypal' })).toThrow(/PAYPAL_CLIENT_ID/);
    expect(() => loadEnv({ NODE_ENV: 'test', ...keys, PAYPAL_ENVIRONMENT: 'staging' })).toThrow(/PAYPAL_ENVIRONMENT/);
  });

  it('refuses the PAYPAL_API_BASE test knob in production', () => {
    const production = { NODE_ENV: 'production', PUBLIC_URL: 'https://shop.example', ...keys };
    expect(() => loadEnv(production)).not.toThrow();
    expect(() => loadEnv({ ...production, PAYPAL_API_BASE: 'http://127.0.0.1:9' })).toThrow(InsecureConfigError);
    expect(() => loadEnv({ ...production, PAYPAL_API_BASE: 'http://127.0.0.1:9' })).toThrow(
      /PAYPAL_API_BASE is a test knob/,
    );
  });
});
