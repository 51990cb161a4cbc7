import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header the sandbox gateway signs its webhooks with: `t=<unix seconds>,v1=<hex HMAC>`. */
export const SANDBOX_SIGNATURE_HEADER = 'sandbox-signature';
/** How old (or how far in the future) a signed timestamp may be. */
export const SANDBOX_SIGNATURE_TOLERANCE_SECONDS = 300;

function hmac(secret: string, timestamp: number, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/** What the gateway sends: HMAC-SHA256 over `timestamp + "." + raw body`, as Stripe does. */
export function signSandboxPayload(
  secret: string,
  rawBody: Buffer | string,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  return `t=${timestamp},v1=${hmac(secret, timestamp, rawBody)}`;
}

export type SignatureCheck = { ok: true } | { ok: false; reason: 'missing' | 'malformed' | 'stale' | 'mismatch' };

/**
 * Checks a signature header against the exact bytes received. The comparison is
 * timing-safe; a timestamp outside the tolerance is refused, so a captured request cannot
 * be replayed later (replays inside the window are caught by the event id).
 */
export function verifySandboxSignature(
  secret: string,
  rawBody: Buffer,
  header: string | undefined,
  now = Math.floor(Date.now() / 1000),
): SignatureCheck {
  if (!header) return { ok: false, reason: 'missing' };
  const parts = new Map(
    header.split(',').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
    }),
  );
  const timestamp = Number(parts.get('t'));
  const given = parts.get('v1') ?? '';
  if (!Number.isInteger(timestamp) || !/^[0-9a-f]{64}$/.test(given)) return { ok: false, reason: 'malformed' };
  if (Math.abs(now - timestamp) > SANDBOX_SIGNATURE_TOLERANCE_SECONDS) return { ok: false, reason: 'stale' };
  const expected = Buffer.from(hmac(secret, timestamp, rawBody), 'hex');
  return timingSafeEqual(expected, Buffer.from(given, 'hex')) ? { ok: true } : { ok: false, reason: 'mismatch' };
}
