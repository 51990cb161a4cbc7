import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * A certificate setting (Alipay's certificate mode) as the PEM text of the certificates it names.
 * Operators either point at the `.crt` file the gateway's console hands out or paste its text
 * (sometimes with `\n` written out in an env file); a value that does not start like a PEM is a
 * path. Throws naming the setting, never showing its value.
 */
export function certificatesPem(value: string, name: string): string {
  const trimmed = value.trim();
  const text = trimmed.startsWith('-----BEGIN') ? trimmed.replace(/\\n/g, '\n') : readText(trimmed);
  // Only the reason: a private key pasted into the wrong setting would otherwise end up in a log.
  if (typeof text !== 'string')
    throw new Error(`${name} is neither a PEM certificate nor a file that can be read (${text.code})`);
  if (!text.includes('-----BEGIN CERTIFICATE-----')) throw new Error(`${name} holds no PEM certificate`);
  try {
    certificatesOf(text);
  } catch {
    throw new Error(`${name} holds a certificate that cannot be read`);
  }
  return text;
}

/** A file's text, or why it cannot be read (the error's code alone: its message repeats the path). */
function readText(path: string): string | { code: string } {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    return { code: (error as NodeJS.ErrnoException).code ?? 'unreadable' };
  }
}

/** Every certificate of a PEM text, in order (a console's leaf first, its issuers after). */
export function certificatesOf(pem: string): X509Certificate[] {
  return (pem.match(PEM_CERTIFICATE) ?? []).map((block) => new X509Certificate(block));
}

/** Whether the first certificate of a PEM text is the public half of this private key (PEM). */
export function certifiesKey(pem: string, privateKeyPem: string): boolean {
  const [leaf] = certificatesOf(pem);
  return leaf?.checkPrivateKey(createPrivateKey(privateKeyPem)) ?? false;
}
