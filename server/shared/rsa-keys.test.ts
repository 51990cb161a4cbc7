import { createSign, createVerify, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { rsaPrivateKeyPem, rsaPublicKeyPem } from './rsa-keys';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = (text: string | Buffer) => String(text);
const base64 = (der: string | Buffer) => Buffer.from(der).toString('base64');

/** Whether a signature made with `privatePem` checks out with `publicPem` (the two halves of one pair). */
function samePair(privatePem: string, publicPem: string): boolean {
  const signature = createSign('RSA-SHA256').update('alipay').sign(privatePem);
  return createVerify('RSA-SHA256').update('alipay').verify(publicPem, signature);
}

describe('RSA keys as gateways hand them out', () => {
  const privateForms = {
    'PKCS#8 PEM': pem(privateKey.export({ type: 'pkcs8', format: 'pem' })),
    'PKCS#1 PEM': pem(privateKey.export({ type: 'pkcs1', format: 'pem' })),
    'bare base64 PKCS#8 (Alipay key tool)': base64(privateKey.export({ type: 'pkcs8', format: 'der' })),
    'bare base64 PKCS#1': base64(privateKey.export({ type: 'pkcs1', format: 'der' })),
    'PEM with \\n written out (one-line env file)': pem(privateKey.export({ type: 'pkcs8', format: 'pem' })).replace(
      /\n/g,
      '\\n',
    ),
  };
  const publicForms = {
    'SPKI PEM': pem(publicKey.export({ type: 'spki', format: 'pem' })),
    'bare base64 SPKI (Alipay console)': base64(publicKey.export({ type: 'spki', format: 'der' })),
    'bare base64 PKCS#1': base64(publicKey.export({ type: 'pkcs1', format: 'der' })),
  };

  it.each(Object.entries(privateForms))('reads a private key given as %s', (_form, text) => {
    const read = rsaPrivateKeyPem(text, 'ALIPAY_PRIVATE_KEY');
    expect(read).toMatch(/^-----BEGIN PRIVATE KEY-----\n[\s\S]+\n-----END PRIVATE KEY-----$/);
    expect(samePair(read, publicForms['SPKI PEM'])).toBe(true);
  });

  it.each(Object.entries(publicForms))('reads a public key given as %s', (_form, text) => {
    const read = rsaPublicKeyPem(text, 'ALIPAY_PUBLIC_KEY');
    expect(read).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----$/);
    expect(samePair(privateForms['PKCS#8 PEM'], read)).toBe(true);
  });

  it('refuses a private key where a public key belongs', () => {
    expect(() => rsaPublicKeyPem(privateForms['PKCS#1 PEM'], 'ALIPAY_PUBLIC_KEY')).toThrow(
      'ALIPAY_PUBLIC_KEY holds a private key where a public key belongs',
    );
  });

  it('refuses text that is no key, and keys that are not RSA', () => {
    expect(() => rsaPrivateKeyPem('not a key', 'ALIPAY_PRIVATE_KEY')).toThrow();
    expect(() => rsaPublicKeyPem('', 'ALIPAY_PUBLIC_KEY')).toThrow();
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(() => rsaPrivateKeyPem(pem(ec.privateKey.export({ type: 'pkcs8', format: 'pem' })), 'KEY')).toThrow(
      'KEY is an ec key, not RSA',
    );
  });
});
