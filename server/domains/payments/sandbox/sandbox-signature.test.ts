import { describe, expect, it } from 'vitest';
import { signSandboxPayload, verifySandboxSignature } from './sandbox-signature';

const secret = 'whsec_sandbox_test_secret';
const body = Buffer.from('{"id":"evt_1","type":"payment.succeeded"}');
const now = 1_800_000_000;

describe('sandbox webhook signature', () => {
  it('accepts what the gateway signed', () => {
    expect(verifySandboxSignature(secret, body, signSandboxPayload(secret, body, now), now)).toEqual({ ok: true });
  });

  it('refuses a changed body, another secret, or a changed signature', () => {
    const header = signSandboxPayload(secret, body, now);
    expect(verifySandboxSignature(secret, Buffer.from(body.toString().replace('1', '2')), header, now)).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(verifySandboxSignature('another-secret', body, header, now)).toEqual({ ok: false, reason: 'mismatch' });
    const flipped = header.slice(0, -1) + (header.endsWith('0') ? '1' : '0');
    expect(verifySandboxSignature(secret, body, flipped, now)).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('refuses timestamps outside the tolerance, both ways', () => {
    expect(verifySandboxSignature(secret, body, signSandboxPayload(secret, body, now - 301), now)).toEqual({
      ok: false,
      reason: 'stale',
    });
    expect(verifySandboxSignature(secret, body, signSandboxPayload(secret, body, now + 301), now)).toEqual({
      ok: false,
      reason: 'stale',
    });
    expect(verifySandboxSignature(secret, body, signSandboxPayload(secret, body, now - 299), now).ok).toBe(true);
  });

  it('refuses missing and malformed headers without throwing', () => {
    expect(verifySandboxSignature(secret, body, undefined, now)).toEqual({ ok: false, reason: 'missing' });
    for (const header of [
      '',
      'garbage',
      't=abc,v1=00',
      `t=${now}`,
      `t=${now},v1=zz`,
      `t=${now},v1=${'a'.repeat(63)}`,
    ]) {
      expect(verifySandboxSignature(secret, body, header, now).ok, header).toBe(false);
    }
  });

  it('a re-signed timestamp invalidates the old signature (no splicing)', () => {
    const header = signSandboxPayload(secret, body, now);
    const v1 = header.split(',')[1];
    expect(verifySandboxSignature(secret, body, `t=${now + 1},${v1}`, now).ok).toBe(false);
  });
});
