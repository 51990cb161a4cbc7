import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InsecureConfigError, loadEnv, type ConfiguredEnv, type Env } from '../../shared/env';
import { offeredMethods, paymentProviders } from './payment-providers';

/** The configuration as the running shop sees it, once the app context has settled the secrets. */
const running = (configured: ConfiguredEnv): Env => ({
  ...configured,
  SESSION_SECRET: 'alipay-config-test-session-secret-xxxxxxxxx',
  SANDBOX_WEBHOOK_SECRET: 'alipay-config-test-webhook-secret-xxxxxxxxx',
});

const app = generateKeyPairSync('rsa', { modulusLength: 2048 });
const alipay = generateKeyPairSync('rsa', { modulusLength: 2048 });
const KEYS = {
  ALIPAY_APP_ID: '2021000000000011',
  // As Alipay's key tool writes them: bare base64, a PKCS#1 private key and an SPKI public key.
  ALIPAY_PRIVATE_KEY: app.privateKey.export({ type: 'pkcs1', format: 'der' }).toString('base64'),
  ALIPAY_PUBLIC_KEY: alipay.publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
};

describe('Alipay configuration (ADR 0143)', () => {
  it('turns Alipay on with its app id and both keys, for CNY orders from any country; the sandbox steps aside', () => {
    const env = running(loadEnv({ NODE_ENV: 'test', ...KEYS }));
    expect(paymentProviders(env).map((provider) => provider.name)).toEqual(['alipay']);
    const offered = (currency: 'CNY' | 'USD' | 'EUR' | 'JPY', country: string) =>
      offeredMethods(env, { currency, country }).map((offer) => `${offer.method}:${offer.provider.name}`);
    expect(offered('CNY', 'CN')).toEqual(['alipay:alipay']);
    expect(offered('CNY', 'DE')).toEqual(['alipay:alipay']);
    expect(offered('USD', 'US')).toEqual([]);
    expect(offered('EUR', 'DE')).toEqual([]);
    expect(offered('JPY', 'JP')).toEqual([]);
  });

  it('offers Alipay directly before Alipay through Stripe, and Stripe for the currencies Alipay direct does not take', () => {
    const env = running(
      loadEnv({ NODE_ENV: 'test', ...KEYS, STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' }),
    );
    const providerOfAlipay = (currency: 'CNY' | 'USD') =>
      offeredMethods(env, { currency, country: 'US' }).find((offer) => offer.method === 'alipay')?.provider.name;
    expect(providerOfAlipay('CNY')).toBe('alipay');
    expect(providerOfAlipay('USD')).toBe('stripe');
  });

  it('refuses one or two of the three settings, and PAYMENT_PROVIDER=alipay without them', () => {
    expect(() => loadEnv({ NODE_ENV: 'test', ALIPAY_APP_ID: KEYS.ALIPAY_APP_ID })).toThrow(
      'ALIPAY_APP_ID, ALIPAY_PRIVATE_KEY and ALIPAY_PUBLIC_KEY go together',
    );
    const { ALIPAY_PUBLIC_KEY: _missing, ...twoOfThree } = KEYS;
    expect(() => loadEnv({ NODE_ENV: 'test', ...twoOfThree })).toThrow(/go together/);
    expect(() => loadEnv({ NODE_ENV: 'test', PAYMENT_PROVIDER: 'alipay' })).toThrow(
      'PAYMENT_PROVIDER=alipay needs ALIPAY_APP_ID, ALIPAY_PRIVATE_KEY and ALIPAY_PUBLIC_KEY',
    );
    expect(() => loadEnv({ NODE_ENV: 'test', ...KEYS, ALIPAY_APP_ID: 'my-app' })).toThrow(/ALIPAY_APP_ID/);
  });

  it('refuses a key it cannot read, naming the variable and never showing the value', () => {
    const secretLooking = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC-not-really-a-key';
    let message = '';
    try {
      loadEnv({ NODE_ENV: 'test', ...KEYS, ALIPAY_PRIVATE_KEY: secretLooking });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('ALIPAY_PRIVATE_KEY is not an RSA private key');
    expect(message).not.toContain(secretLooking.slice(0, 20));
    // A private key pasted where Alipay's public key belongs is refused, not turned into its public half.
    const privatePem = String(app.privateKey.export({ type: 'pkcs1', format: 'pem' }));
    expect(() => loadEnv({ NODE_ENV: 'test', ...KEYS, ALIPAY_PUBLIC_KEY: privatePem })).toThrow(
      'ALIPAY_PUBLIC_KEY is not an RSA public key',
    );
    expect(() => loadEnv({ NODE_ENV: 'test', ...KEYS, ALIPAY_PUBLIC_KEY: 'c2hvcnQ=' })).toThrow(
      'ALIPAY_PUBLIC_KEY is not an RSA public key',
    );
  });

  it('honours ALIPAY_GATEWAY outside production only', () => {
    const gateway = 'http://127.0.0.1:12112/gateway.do';
    expect(loadEnv({ NODE_ENV: 'test', ...KEYS, ALIPAY_GATEWAY: gateway }).ALIPAY_GATEWAY).toBe(gateway);
    const production = { NODE_ENV: 'production', PUBLIC_URL: 'https://shop.example', ...KEYS };
    expect(() => loadEnv({ ...production, ALIPAY_GATEWAY: gateway })).toThrow(InsecureConfigError);
    expect(() => loadEnv({ ...production, ALIPAY_GATEWAY: gateway })).toThrow('ALIPAY_GATEWAY is a test knob');
    expect(() => loadEnv(production)).not.toThrow();
  });
});
