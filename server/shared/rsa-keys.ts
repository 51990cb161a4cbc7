import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

/**
 * Gateways hand out RSA keys as bare base64 (Alipay's console: PKCS#1 or PKCS#8 private keys,
 * SPKI public keys) and operators paste PEM files, sometimes with `\n` written out in an env
 * file. Every form is read here and given back as one PEM shape, so an SDK never guesses.
 */
type DerType = 'pkcs1' | 'pkcs8' | 'spki';
type KeyInput = string | { key: Buffer; format: 'der'; type: DerType };

function readKey(text: string, read: (input: KeyInput) => KeyObject, derTypes: DerType[]) {
  const trimmed = text.trim().replace(/\\n/g, '\n');
  if (trimmed.startsWith('-----BEGIN')) return read(trimmed);
  const der = Buffer.from(trimmed.replace(/\s+/g, ''), 'base64');
  let lastError: unknown = new Error('no key');
  for (const type of derTypes) {
    try {
      return read({ key: der, format: 'der', type });
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

function rsaOnly(key: KeyObject, name: string): KeyObject {
  if (key.asymmetricKeyType !== 'rsa') throw new Error(`${name} is an ${key.asymmetricKeyType} key, not RSA`);
  return key;
}

/** A private RSA key (PEM, or base64 PKCS#1 or PKCS#8) as PKCS#8 PEM without the final newline; throws naming `name`. */
export function rsaPrivateKeyPem(text: string, name: string): string {
  const key = rsaOnly(
    readKey(text, (input) => createPrivateKey(input as Parameters<typeof createPrivateKey>[0]), ['pkcs8', 'pkcs1']),
    name,
  );
  return (key.export({ type: 'pkcs8', format: 'pem' }) as string).trim();
}

/** A public RSA key (PEM, or base64 SPKI or PKCS#1) as SPKI PEM without the final newline; throws naming `name`. */
export function rsaPublicKeyPem(text: string, name: string): string {
  // node:crypto would derive the public half of a private key pasted here; refuse it instead.
  if (text.includes('PRIVATE KEY')) throw new Error(`${name} holds a private key where a public key belongs`);
  const key = rsaOnly(
    readKey(text, (input) => createPublicKey(input as Parameters<typeof createPublicKey>[0]), ['spki', 'pkcs1']),
    name,
  );
  return (key.export({ type: 'spki', format: 'pem' }) as string).trim();
}
