import { Secret, TOTP } from 'otpauth';
import type { RequestOptions, TestApp, TestResponse } from './test-server';
import type { TestStaff } from './staff';

const CSRF = 'staff-sign-in-csrf';
/** What an anonymous console client sends: the CSRF cookie echoed in its header, English answers. */
export const anonymous = { cookies: { csrf_token: CSRF }, headers: { 'x-csrf-token': CSRF, lang: 'en' } };

/** A request from a console client with no session yet. */
export function anonymousRequest<T = any>(shop: TestApp, path: string, options: RequestOptions = {}) {
  return shop.request<T>(path, {
    ...options,
    cookies: { ...anonymous.cookies, ...options.cookies },
    headers: { ...anonymous.headers, ...options.headers },
  });
}

/** The authenticator code for a secret, `steps` periods of 30 seconds from now (RFC 6238, as an app computes it). */
export function totpCode(secret: string, steps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

/** The staff session cookie an answer set, if any. */
export function sessionCookieOf(answer: TestResponse): string | undefined {
  for (const cookie of answer.headers.getSetCookie()) {
    const match = /^staff_session=([^;]*)/.exec(cookie);
    if (match?.[1]) return match[1];
  }
  return undefined;
}

/** A client holding the session an answer opened. */
export function clientOf(shop: TestApp, answer: TestResponse) {
  const token = sessionCookieOf(answer);
  if (!token) throw new Error(`no staff session cookie in the answer (${answer.status} ${answer.text})`);
  return <T = any>(path: string, options: RequestOptions = {}) =>
    anonymousRequest<T>(shop, path, { ...options, cookies: { staff_session: token, ...options.cookies } });
}

/** Sets up two-step sign-in for a member through the API; answers the secret and the recovery codes. */
export async function enrolTotp(
  member: Pick<TestStaff, 'request'>,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = await member.request('/v1/admin/me/totp', { method: 'POST' });
  if (started.status !== 200) throw new Error(`starting enrolment: ${started.status} ${started.text}`);
  const secret: string = started.body.data.secret;
  const confirmed = await member.request('/v1/admin/me/totp/confirm', {
    method: 'POST',
    body: { code: totpCode(secret) },
  });
  if (confirmed.status !== 200) throw new Error(`confirming enrolment: ${confirmed.status} ${confirmed.text}`);
  return { secret, recoveryCodes: confirmed.body.data.recovery_codes };
}
