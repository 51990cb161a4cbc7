import path from 'node:path';
import { z } from 'zod';
import { PAYMENT_PROVIDERS, STRIPE_PAYMENT_METHODS } from './payment-methods';
import { certificatesOf, certificatesPem, certifiesKey } from './certificates';
import { rsaPrivateKeyPem, rsaPublicKeyPem } from './rsa-keys';

/** The demo shop's return address: a real shop sets AFTER_SALE_RETURN_ADDRESS (main.ts warns when it has not). */
export const DEMO_RETURN_ADDRESS =
  'Returns Dept., 3F No. 88 Jiangnan Road, Binjiang District, Hangzhou, Zhejiang 310051, China, +86 571 8888 0000';

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  REDIS_URL: z.string().url().optional(),
  REDIS_KEY_PREFIX: z.string().default('shop:'),
  PUBLIC_URL: z.string().url().optional(),
  /** Unset: a random secret is generated once and kept in the database, shared by every copy. */
  SESSION_SECRET: z.string().min(32).optional(),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value) => value === 'true' || value === '1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  SEED_DEMO_DATA: z
    .string()
    .optional()
    .transform((value) => value !== 'false' && value !== '0'),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Shop <no-reply@shop.local>'),
  CAPTCHA_TEST_ANSWER: z.string().regex(/^\d+$/).optional(),
  /** Google sign-in (OpenID Connect). Unset: the Google option is hidden and the API answers 'clientId is required'. */
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  /** Test knob: another OpenID issuer instead of Google (a local mock in tests). Refused in production. */
  OIDC_ISSUER_OVERRIDE: z.string().url().optional(),
  /** Overrides of the account rate limits, e.g. `login.ip=100/600,captcha.ip=1000/60` (see server/domains/customers/rate-limits.ts). */
  RATE_LIMITS: z
    .string()
    .regex(/^\s*([\w.]+=\d+\/\d+\s*(,\s*|$))*$/, 'expected name=max/seconds pairs separated by commas')
    .default(''),
  /** Largest image accepted by POST /v1/upload. */
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(5 * 1024 * 1024),
  PAGE_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).default(60),
  /** Longest a buyer's account page is kept for their session (ADR 0095); changes retire it at once; 0 turns it off. */
  PRIVATE_PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).default(300),
  /** Memory this process gives kept account pages, in MB. */
  PRIVATE_PAGE_CACHE_MB: z.coerce.number().int().min(1).default(32),
  /** Largest image the console accepts (POST /v1/admin/media/images and /site-images). */
  MEDIA_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(20 * 1024 * 1024),
  /**
   * Hosts (`name` or `name:port`, comma-separated) a products CSV may name images on although
   * they resolve to a private or loopback address: an operator's own image server (ADR 0161).
   */
  IMPORT_IMAGE_TRUSTED_HOSTS: z.string().default(''),
  /**
   * Blob store (docs/decisions/0150-blob-store-and-s3.md): with S3_BUCKET set, images and uploads
   * live in that S3-compatible bucket (shared by every copy); unset, in folders under DATA_DIR.
   */
  S3_BUCKET: z.string().min(1).optional(),
  /** Unset: AWS itself; set for any other S3-compatible service (MinIO, R2, OSS, a local server in tests). */
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** Unset: the AWS SDK's own chain (instance role, AWS_* variables, ~/.aws). */
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z
    .string()
    .optional()
    .transform((value) => value === 'true' || value === '1'),
  /** Prepended to every object key (e.g. `shop/`), so one bucket can hold several shops. */
  S3_PREFIX: z.string().default(''),
  /**
   * Slow clients (docs/decisions/0074-slow-clients-and-load-shedding.md): how long one may take
   * to send its request headers, its whole request (body included), how long an idle keep-alive
   * connection stays open (above a proxy's own idle timeout), and how long a connection may see
   * no traffic at all while a request is in progress.
   */
  HTTP_HEADERS_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(10),
  HTTP_REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(60),
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(72),
  HTTP_IDLE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(60),
  /**
   * Rolling restarts (docs/decisions/0120-rolling-restarts.md): after SIGTERM or SIGINT, how long
   * the copy keeps serving with `/readyz` failing before it stops listening, so the balancer has
   * taken it out of rotation by then. At least the balancer's health-check interval times the
   * failures it needs; 0 stops listening at once (no balancer, `npm run dev`).
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(120_000).default(5_000),
  /** Load shedding (same ADR): past any of these the API and pages answer 503; 0 turns a check off. */
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).default(1000),
  OVERLOAD_MAX_EVENT_LOOP_UTILIZATION: z.coerce.number().min(0).max(1).default(0),
  /** Unset: 90% of V8's heap limit. */
  OVERLOAD_MAX_HEAP_USED_BYTES: z.coerce.number().int().min(0).optional(),
  OVERLOAD_MAX_RSS_BYTES: z.coerce.number().int().min(0).default(0),
  /**
   * Orders placed at once by one server copy (docs/decisions/0181-order-placements-take-turns.md);
   * the others wait their turn, first come, first served, for at most ORDER_PLACEMENT_MAX_WAIT_SECONDS,
   * then are answered 503 with Retry-After. Unset: DATABASE_POOL_MAX.
   */
  ORDER_PLACEMENTS_AT_ONCE: z.coerce.number().int().min(1).max(200).optional(),
  ORDER_PLACEMENT_MAX_WAIT_SECONDS: z.coerce.number().min(0.01).max(60).default(10),
  /**
   * Payment methods (docs/decisions/0141-payment-methods-and-event-inbox.md): every provider
   * whose keys are set takes payments. PAYMENT_PROVIDER, the older single choice, still works:
   * when set, new payments go to that provider alone.
   */
  PAYMENT_PROVIDER: z.enum(PAYMENT_PROVIDERS).optional(),
  /** auto: the sandbox is on while no real provider is configured (the zero-setup default); on or off forces it. */
  SANDBOX_PAYMENTS: z.enum(['auto', 'on', 'off']).default('auto'),
  /**
   * An exchange rate set longer ago than this is stale: flagged in the console, and buyers are
   * charged in the settlement currency instead of that display currency (ADR 0144).
   */
  EXCHANGE_RATE_MAX_AGE_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 365)
    .default(72),
  /** Payments still pending this long are asked about at their gateway (a webhook may have been lost). */
  PAYMENT_RECONCILE_AFTER_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(10),
  /** Unset: generated once and kept in the database, like SESSION_SECRET. */
  SANDBOX_WEBHOOK_SECRET: z.string().min(32).optional(),
  /** Where the sandbox gateway posts its webhooks; unset: this server's own listening address. */
  SANDBOX_WEBHOOK_URL: z.string().url().optional(),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** Test knob: send Stripe SDK requests to a local fake instead of api.stripe.com. */
  STRIPE_API_BASE: z.string().url().optional(),
  /** The Stripe payment methods offered (each must be turned on in the Stripe dashboard), comma-separated. */
  STRIPE_PAYMENT_METHODS: z
    .string()
    .default('card,alipay,wechat_pay')
    .transform((list) => list.split(',').map((method) => method.trim()))
    .pipe(z.array(z.enum(STRIPE_PAYMENT_METHODS)).min(1)),
  /** Alipay Open Platform (ADR 0143): the app's id; with the private key and one signing mode below it turns Alipay on. */
  ALIPAY_APP_ID: z
    .string()
    .regex(/^\d{8,32}$/, "the app id is the digits shown in Alipay's console")
    .optional(),
  /** The app's RSA2 private key: PEM, or the bare base64 (PKCS#1 or PKCS#8) Alipay's key tool writes. */
  ALIPAY_PRIVATE_KEY: z.string().min(1).optional(),
  /** Alipay's public key for the app (copied from Alipay's console; not the app's own public key). */
  ALIPAY_PUBLIC_KEY: z.string().min(1).optional(),
  /**
   * Certificate mode instead of ALIPAY_PUBLIC_KEY: the app's public-key certificate, Alipay's
   * public-key certificate and Alipay's root certificate, each a `.crt` file's path or its PEM text.
   */
  ALIPAY_APP_CERT: z.string().min(1).optional(),
  ALIPAY_PUBLIC_CERT: z.string().min(1).optional(),
  ALIPAY_ROOT_CERT: z.string().min(1).optional(),
  /** Test knob: send Alipay SDK calls and buyers to a local fake instead of https://openapi.alipay.com/gateway.do. */
  ALIPAY_GATEWAY: z.string().url().optional(),
  /** PayPal (ADR 0142): the REST app's client id and secret and the id PayPal gave our webhook; the three turn PayPal on. */
  PAYPAL_CLIENT_ID: z.string().min(1).optional(),
  PAYPAL_CLIENT_SECRET: z.string().min(1).optional(),
  PAYPAL_WEBHOOK_ID: z.string().min(1).optional(),
  /** Which PayPal the keys belong to: `live`, or `sandbox` (PayPal's developer sandbox, its own keys). */
  PAYPAL_ENVIRONMENT: z.enum(['live', 'sandbox']).default('live'),
  /** Test knob: send PayPal calls to a local fake, and take webhook certificates from it alone. */
  PAYPAL_API_BASE: z.string().url().optional(),
  ORDER_PAYMENT_TIMEOUT_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(30),
  ORDER_AUTO_CONFIRM_DAYS: z.coerce.number().int().min(1).max(365).default(10),
  /** The shop's return window in days from delivery; a buyer's country may require more (after-sale-policy.ts). */
  AFTER_SALE_WINDOW_DAYS: z.coerce.number().int().min(0).max(365).default(7),
  /** An approved return or exchange whose parcel is not sent within this many days is closed. */
  AFTER_SALE_PARCEL_DAYS: z.coerce.number().int().min(1).max(90).default(14),
  /** How long the shop gives itself to answer a request, for the console's queue. */
  AFTER_SALE_ANSWER_HOURS: z.coerce.number().int().min(1).max(720).default(48),
  /** Refunds below this (settlement minor units) may be approved without the goods coming back. */
  AFTER_SALE_RETURNLESS_BELOW_MINOR: z.coerce.number().int().min(0).default(10_000),
  /** Where buyers send returns and exchanges, shown on the case page once approved. */
  AFTER_SALE_RETURN_ADDRESS: z.string().min(10).default(DEMO_RETURN_ADDRESS),
  /** The shop's EU IOSS number (IM + 10 digits): printed on the commercial invoice of EU parcels up to EUR 150. */
  IOSS_NUMBER: z
    .string()
    .regex(/^IM\d{10}$/, 'expected IM and 10 digits')
    .optional(),
  /** The shop's UK VAT number (GB + 9 or 12 digits): printed on the commercial invoice of UK parcels up to GBP 135. */
  UK_VAT_NUMBER: z
    .string()
    .regex(/^GB(\d{9}|\d{12})$/, 'expected GB and 9 or 12 digits')
    .optional(),
  /** How often each copy looks for due orders; 0 turns the sweep off in this copy. */
  ORDER_SWEEP_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
});

/** Configuration as read at start: the two secrets are absent when not configured. */
export type ConfiguredEnv = z.infer<typeof envSchema> & { dataDir: string };

/**
 * Configuration as the running shop reads it: the app context (server/runtime.ts) has filled
 * in the secrets that were not configured, from the ones generated once and kept in the database.
 */
export type Env = ConfiguredEnv & { SESSION_SECRET: string; SANDBOX_WEBHOOK_SECRET: string };

export class InsecureConfigError extends Error {}

const ALIPAY_CERTS = ['ALIPAY_APP_CERT', 'ALIPAY_PUBLIC_CERT', 'ALIPAY_ROOT_CERT'] as const;
type AlipaySetting = 'ALIPAY_APP_ID' | 'ALIPAY_PRIVATE_KEY' | 'ALIPAY_PUBLIC_KEY' | (typeof ALIPAY_CERTS)[number];

/** "A", "A and B", "A, B and C". */
const listed = (names: readonly string[]) =>
  names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');

/**
 * Which of Alipay's two signing modes the settings describe (ADR 0143): the app id and private
 * key with Alipay's public key, or with the three certificates. Half a mode or both modes at once
 * is a mistake, named in `problems`; a complete mode answers its name.
 */
function alipayMode(env: z.infer<typeof envSchema>, problems: string[]): 'key' | 'certificate' | null {
  const missing = (names: readonly AlipaySetting[]) => names.filter((name) => !env[name]);
  const certs = ALIPAY_CERTS.filter((name) => env[name]);
  if (env.ALIPAY_PUBLIC_KEY && certs.length > 0) {
    problems.push(`ALIPAY_PUBLIC_KEY (public key mode) and ${listed(certs)} (certificate mode) are two modes: set one`);
    return null;
  }
  if (certs.length > 0) {
    const absent = missing(['ALIPAY_APP_ID', 'ALIPAY_PRIVATE_KEY', ...ALIPAY_CERTS]);
    if (absent.length === 0) return 'certificate';
    problems.push(
      `Alipay's certificate mode is missing ${listed(absent)} (it needs ALIPAY_APP_ID, ALIPAY_PRIVATE_KEY, ${listed(ALIPAY_CERTS)})`,
    );
    return null;
  }
  const absent = missing(['ALIPAY_APP_ID', 'ALIPAY_PRIVATE_KEY', 'ALIPAY_PUBLIC_KEY']);
  if (absent.length === 0) return 'key';
  if (absent.length < 3)
    problems.push(
      `ALIPAY_APP_ID, ALIPAY_PRIVATE_KEY and ALIPAY_PUBLIC_KEY go together (missing ${listed(absent)}); in certificate mode ${listed(ALIPAY_CERTS)} take ALIPAY_PUBLIC_KEY's place`,
    );
  return null;
}

/**
 * Alipay takes payments when one signing mode is fully set; half of one is a mistake, and so
 * is a key or certificate that cannot be read or does not belong where it was put. Messages
 * name the variable, never a key's value.
 */
function checkAlipayKeys(env: z.infer<typeof envSchema>): void {
  const problems: string[] = [];
  const mode = alipayMode(env, problems);
  if (env.PAYMENT_PROVIDER === 'alipay' && !mode)
    problems.push(
      `PAYMENT_PROVIDER=alipay needs ALIPAY_APP_ID, ALIPAY_PRIVATE_KEY and ALIPAY_PUBLIC_KEY (or ${listed(ALIPAY_CERTS)} in its place)`,
    );
  const read = <T>(load: () => T, problem?: string): T | undefined => {
    try {
      return load();
    } catch (error) {
      problems.push(problem ?? (error as Error).message);
      return undefined;
    }
  };
  const privateKey =
    env.ALIPAY_PRIVATE_KEY &&
    read(
      () => rsaPrivateKeyPem(env.ALIPAY_PRIVATE_KEY!, 'ALIPAY_PRIVATE_KEY'),
      'ALIPAY_PRIVATE_KEY is not an RSA private key (PEM, or base64 PKCS#1 or PKCS#8)',
    );
  if (env.ALIPAY_PUBLIC_KEY)
    read(
      () => rsaPublicKeyPem(env.ALIPAY_PUBLIC_KEY!, 'ALIPAY_PUBLIC_KEY'),
      'ALIPAY_PUBLIC_KEY is not an RSA public key (PEM, or base64 SPKI)',
    );
  const [app, alipay, root] = ALIPAY_CERTS.map((name) => env[name] && read(() => certificatesPem(env[name]!, name)));
  // The usual mix-ups: another app's certificate, and the three files put in each other's places.
  if (app && privateKey && !certifiesKey(app, privateKey))
    problems.push('ALIPAY_APP_CERT is not the certificate of ALIPAY_PRIVATE_KEY (appCertPublicKey_<app id>.crt)');
  if (alipay && certificatesOf(alipay)[0]?.publicKey.asymmetricKeyType !== 'rsa')
    problems.push('ALIPAY_PUBLIC_CERT does not start with an RSA certificate (alipayCertPublicKey_RSA2.crt)');
  if (root && !certificatesOf(root).some((certificate) => certificate.checkIssued(certificate)))
    problems.push('ALIPAY_ROOT_CERT holds no root certificate (alipayRootCert.crt)');
  if (problems.length > 0) throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
}

/**
 * Reads configuration from the environment once, at start. In production it refuses
 * settings that are only safe on a developer's machine, so a shop cannot go live with
 * test knobs switched on.
 */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): ConfiguredEnv {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const env = parsed.data;
  if (env.PAYMENT_PROVIDER === 'stripe' && (!env.STRIPE_SECRET_KEY || !env.STRIPE_WEBHOOK_SECRET)) {
    throw new Error(
      'Invalid configuration:\n  PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET',
    );
  }
  const paypalKeys = [env.PAYPAL_CLIENT_ID, env.PAYPAL_CLIENT_SECRET, env.PAYPAL_WEBHOOK_ID].filter(Boolean).length;
  if (paypalKeys % 3 !== 0 || (env.PAYMENT_PROVIDER === 'paypal' && paypalKeys === 0)) {
    throw new Error(
      'Invalid configuration:\n  PayPal needs PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET and PAYPAL_WEBHOOK_ID together',
    );
  }
  checkAlipayKeys(env);
  if (env.PAYMENT_PROVIDER === 'sandbox' && env.SANDBOX_PAYMENTS === 'off') {
    throw new Error('Invalid configuration:\n  PAYMENT_PROVIDER=sandbox contradicts SANDBOX_PAYMENTS=off');
  }
  if (env.NODE_ENV === 'production') {
    const insecure: string[] = [];
    if (env.CAPTCHA_TEST_ANSWER) insecure.push('CAPTCHA_TEST_ANSWER is a test knob');
    if (env.OIDC_ISSUER_OVERRIDE) insecure.push('OIDC_ISSUER_OVERRIDE is a test knob');
    if (env.STRIPE_API_BASE) insecure.push('STRIPE_API_BASE is a test knob');
    if (env.ALIPAY_GATEWAY) insecure.push('ALIPAY_GATEWAY is a test knob');
    if (env.PAYPAL_API_BASE) insecure.push('PAYPAL_API_BASE is a test knob');
    // Payment return and notify addresses, mail links and the sitemap are built from it; a Host header must never decide them.
    if (!env.PUBLIC_URL) insecure.push('PUBLIC_URL is required (the address buyers use, e.g. https://shop.example)');
    if (insecure.length > 0) {
      throw new InsecureConfigError(`Refusing to start in production: ${insecure.join('; ')}`);
    }
  }
  return { ...env, dataDir: path.resolve(env.DATA_DIR) };
}
