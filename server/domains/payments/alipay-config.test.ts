import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
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

describe("Alipay's certificate mode (公钥证书模式, ADR 0143)", () => {
  const fixture = (name: string) =>
    fileURLToPath(new URL(`../../../tests/fixtures/alipay-cert/${name}`, import.meta.url));
  const CERTS = {
    ALIPAY_APP_ID: '2021000000000042',
    ALIPAY_PRIVATE_KEY: readFileSync(fixture('appCertPublicKey_2021000000000042.key'), 'utf8'),
    ALIPAY_APP_CERT: fixture('appCertPublicKey_2021000000000042.crt'),
    ALIPAY_PUBLIC_CERT: readFileSync(fixture('alipayCertPublicKey_RSA2.crt'), 'utf8'),
    ALIPAY_ROOT_CERT: fixture('alipayRootCert.crt'),
  };
  const failure = (source: Record<string, string>) => {
    try {
      loadEnv({ NODE_ENV: 'test', ...source });
    } catch (error) {
      return (error as Error).message;
    }
    return 'started';
  };

  it('turns Alipay on with the app id, the private key and the three certificates (paths or PEM text) instead of ALIPAY_PUBLIC_KEY', () => {
    const env = running(loadEnv({ NODE_ENV: 'test', ...CERTS }));
    expect(paymentProviders(env).map((provider) => provider.name)).toEqual(['alipay']);
    expect(offeredMethods(env, { currency: 'CNY', country: 'CN' }).map((offer) => offer.provider.name)).toEqual([
      'alipay',
    ]);
  });

  it('names what a half-configured certificate mode is missing', () => {
    const { ALIPAY_ROOT_CERT: _root, ...noRoot } = CERTS;
    expect(failure(noRoot)).toBe(
      "Invalid configuration:\n  Alipay's certificate mode is missing ALIPAY_ROOT_CERT (it needs ALIPAY_APP_ID, ALIPAY_PRIVATE_KEY, ALIPAY_APP_CERT, ALIPAY_PUBLIC_CERT and ALIPAY_ROOT_CERT)",
    );
    expect(failure({ ALIPAY_APP_CERT: CERTS.ALIPAY_APP_CERT })).toContain(
      "Alipay's certificate mode is missing ALIPAY_APP_ID, ALIPAY_PRIVATE_KEY, ALIPAY_PUBLIC_CERT and ALIPAY_ROOT_CERT",
    );
    expect(failure({ ALIPAY_APP_ID: CERTS.ALIPAY_APP_ID, ALIPAY_PRIVATE_KEY: CERTS.ALIPAY_PRIVATE_KEY })).toContain(
      "ALIPAY_APP_ID, ALIPAY_PRIVATE_KEY and ALIPAY_PUBLIC_KEY go together (missing ALIPAY_PUBLIC_KEY); in certificate mode ALIPAY_APP_CERT, ALIPAY_PUBLIC_CERT and ALIPAY_ROOT_CERT take ALIPAY_PUBLIC_KEY's place",
    );
    expect(failure({ PAYMENT_PROVIDER: 'alipay', ...noRoot })).toContain(
      'PAYMENT_PROVIDER=alipay needs ALIPAY_APP_ID, ALIPAY_PRIVATE_KEY and ALIPAY_PUBLIC_KEY (or ALIPAY_APP_CERT, ALIPAY_PUBLIC_CERT and ALIPAY_ROOT_CERT in its place)',
    );
  });

  it('refuses both modes at once', () => {
    expect(failure({ ...CERTS, ALIPAY_PUBLIC_KEY: KEYS.ALIPAY_PUBLIC_KEY })).toBe(
      'Invalid configuration:\n  ALIPAY_PUBLIC_KEY (public key mode) and ALIPAY_APP_CERT, ALIPAY_PUBLIC_CERT and ALIPAY_ROOT_CERT (certificate mode) are two modes: set one',
    );
  });

  it('refuses certificates it cannot read or that sit in the wrong place, naming the setting', () => {
    expect(failure({ ...CERTS, ALIPAY_ROOT_CERT: '/nowhere/alipayRootCert.crt' })).toBe(
      'Invalid configuration:\n  ALIPAY_ROOT_CERT is neither a PEM certificate nor a file that can be read (ENOENT)',
    );
    // A private key pasted in the wrong place is taken for a path, and never shown.
    const misplaced = failure({ ...CERTS, ALIPAY_PUBLIC_CERT: KEYS.ALIPAY_PRIVATE_KEY });
    expect(misplaced).toContain('ALIPAY_PUBLIC_CERT is neither a PEM certificate nor a file that can be read (');
    expect(misplaced).not.toContain(KEYS.ALIPAY_PRIVATE_KEY.slice(0, 40));
    expect(
      failure({
        ...CERTS,
        ALIPAY_APP_CERT: '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----',
      }),
    ).toBe('Invalid configuration:\n  ALIPAY_APP_CERT holds a certificate that cannot be read');
    // Another app's certificate for this private key; the three files in each other's places.
    expect(failure({ ...CERTS, ALIPAY_APP_CERT: fixture('strangerCertPublicKey_RSA2.crt') })).toBe(
      'Invalid configuration:\n  ALIPAY_APP_CERT is not the certificate of ALIPAY_PRIVATE_KEY (appCertPublicKey_<app id>.crt)',
    );
    expect(
      failure({
        ...CERTS,
        ALIPAY_PUBLIC_CERT: CERTS.ALIPAY_ROOT_CERT,
        ALIPAY_ROOT_CERT: fixture('alipayCertPublicKey_RSA2.crt'),
      }),
    ).toBe('Invalid configuration:\n  ALIPAY_ROOT_CERT holds no root certificate (alipayRootCert.crt)');
  });
});
