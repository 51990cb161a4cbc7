import { verify, X509Certificate } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { z } from 'zod';
import { WebhookVerificationError } from '../payment-provider';

/**
 * PayPal webhook signatures checked on our side (ADR 0142): PayPal signs
 * `<transmission id>|<transmission time>|<our webhook id>|<CRC32 of the raw body>` with
 * SHA256withRSA and names the certificate in PAYPAL-CERT-URL. The certificate is fetched only
 * from PayPal's own API hosts over HTTPS (a signer cannot bring its own), and kept until it
 * expires, so a delivery costs no call to PayPal once the certificate is known.
 */

/** Where PayPal serves its signing certificates; any other cert URL is refused. */
export const PAYPAL_CERT_ORIGINS = {
  live: ['https://api.paypal.com', 'https://api-m.paypal.com'],
  sandbox: ['https://api.sandbox.paypal.com', 'https://api-m.sandbox.paypal.com'],
} as const;
const CERT_PATH = '/v1/notifications/certs/';
const MAX_CACHED_CERTS = 16;
const MAX_CERT_BYTES = 16_384;

export const paypalWebhookEvent = z.object({
  id: z.string().min(1).max(200),
  event_type: z.string().min(1),
  resource_type: z.string().optional(),
  resource: z.unknown(),
});
export type PayPalWebhookEvent = z.infer<typeof paypalWebhookEvent>;

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string {
  const value = headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) throw new WebhookVerificationError(`paypal: missing ${name}`);
  return text;
}

export interface PayPalWebhookVerifierOptions {
  /** The id PayPal gave the webhook we registered (PAYPAL_WEBHOOK_ID); part of what is signed. */
  webhookId: string;
  /** Origins a certificate may come from: PayPal's hosts, or the local fake's in tests. */
  certOrigins: readonly string[];
}

/** Checks a delivery and answers its event; throws WebhookVerificationError when it is not PayPal's. */
export function createPayPalWebhookVerifier(options: PayPalWebhookVerifierOptions) {
  const certificates = new Map<string, Promise<X509Certificate>>();

  async function download(url: string): Promise<X509Certificate> {
    const response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`certificate answered ${response.status}`);
    const pem = await response.text();
    if (pem.length > MAX_CERT_BYTES) throw new Error('certificate too large');
    return new X509Certificate(pem);
  }

  function certificate(certUrl: string): Promise<X509Certificate> {
    let url: URL;
    try {
      url = new URL(certUrl);
    } catch {
      throw new WebhookVerificationError('paypal: cert url is not a URL');
    }
    if (
      !options.certOrigins.includes(url.origin) ||
      !url.pathname.startsWith(CERT_PATH) ||
      url.search ||
      url.username ||
      url.password
    ) {
      throw new WebhookVerificationError(`paypal: cert url ${url.origin}${url.pathname} is not PayPal's`);
    }
    const key = url.href;
    let cached = certificates.get(key);
    if (!cached) {
      if (certificates.size >= MAX_CACHED_CERTS) certificates.delete(certificates.keys().next().value!);
      cached = download(key);
      certificates.set(key, cached);
      // A failed download is not remembered: the next delivery (PayPal retries) tries again.
      cached.catch(() => certificates.delete(key));
    }
    return cached;
  }

  return async function verifyPayPalWebhook(rawBody: Buffer, headers: Headers): Promise<PayPalWebhookEvent> {
    const transmissionId = header(headers, 'paypal-transmission-id');
    const transmissionTime = header(headers, 'paypal-transmission-time');
    const signature = header(headers, 'paypal-transmission-sig');
    const algorithm = header(headers, 'paypal-auth-algo');
    if (algorithm !== 'SHA256withRSA') throw new WebhookVerificationError(`paypal: algorithm ${algorithm}`);
    let cert: X509Certificate;
    try {
      cert = await certificate(header(headers, 'paypal-cert-url'));
    } catch (error) {
      if (error instanceof WebhookVerificationError) throw error;
      // Not answered 5xx: PayPal retries any answer that is not 2xx, for three days.
      throw new WebhookVerificationError(`paypal: certificate unavailable: ${(error as Error).message}`);
    }
    const now = Date.now();
    if (Date.parse(cert.validFrom) > now || Date.parse(cert.validTo) < now) {
      throw new WebhookVerificationError('paypal: certificate outside its validity');
    }
    const signed = `${transmissionId}|${transmissionTime}|${options.webhookId}|${crc32(rawBody)}`;
    if (!verify('sha256', Buffer.from(signed), cert.publicKey, Buffer.from(signature, 'base64'))) {
      throw new WebhookVerificationError('paypal: signature does not match');
    }
    try {
      return paypalWebhookEvent.parse(JSON.parse(rawBody.toString('utf8')));
    } catch {
      throw new WebhookVerificationError('paypal: event is not in the expected shape');
    }
  };
}
