import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Env } from '../../shared/env';

/**
 * Staff secrets kept at rest (TOTP secrets, invitation links waiting in the outbox) are sealed
 * with AES-256-GCM under a key derived from SESSION_SECRET by HKDF, one key per purpose. A
 * copy of the database alone does not give a second factor away; rotating SESSION_SECRET
 * makes existing seals unreadable (members set up two-step sign-in again). ADR 0100.
 */
export type SealPurpose = 'totp-secret' | 'invitation-link';

const VERSION = 'v1';
const keys = new Map<string, Buffer>();

function keyFor(env: Pick<Env, 'SESSION_SECRET'>, purpose: SealPurpose): Buffer {
  const id = `${purpose}:${env.SESSION_SECRET}`;
  let key = keys.get(id);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', env.SESSION_SECRET, 'staff-seal', `shop ${purpose} ${VERSION}`, 32));
    keys.set(id, key);
  }
  return key;
}

/** `v1.<iv>.<tag>.<ciphertext>`, base64url; the purpose is bound as associated data. */
export function seal(env: Pick<Env, 'SESSION_SECRET'>, purpose: SealPurpose, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(env, purpose), iv);
  cipher.setAAD(Buffer.from(purpose));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, ...[iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url'))].join('.');
}

/** The sealed text, or null when it was sealed under another secret or purpose, or altered. */
export function unseal(env: Pick<Env, 'SESSION_SECRET'>, purpose: SealPurpose, sealed: string): string | null {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFor(env, purpose), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(purpose));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
