import { TEST_CAPTCHA } from '../../scripts/lib/demo-fixtures.mjs';
import type { TestApp } from './test-server';

/** The answer every captcha accepts in tests (CAPTCHA_TEST_ANSWER), so journeys can get past it. */
export { TEST_CAPTCHA };

/**
 * Account limits high enough that no test trips them by accident, on a machine busy with the whole
 * suite. A test that checks a limit appends its own lower value: the last one named wins.
 */
export const GENEROUS_RATE_LIMITS = [
  'captcha.ip',
  'register.ip',
  'register.email',
  'login.ip',
  'sendCode.ip',
  'sendCode.email',
  'loginByCode.ip',
  'loginByCode.email',
]
  .map((limit) => `${limit}=1000/60`)
  .join(',');

/** Server settings for account tests: the known captcha answer and the generous limits. */
export const ACCOUNT_TEST_ENV = {
  CAPTCHA_TEST_ANSWER: TEST_CAPTCHA,
  RATE_LIMITS: GENEROUS_RATE_LIMITS,
};

export async function newCaptcha(server: TestApp, headers: Record<string, string> = {}): Promise<string> {
  const response = await server.request('/v1/captcha', { method: 'POST', body: { captcha_type: 'digit' }, headers });
  if (response.body.code !== 200) throw new Error(`captcha: ${response.text}`);
  return response.body.data.id;
}

let counter = 0;

export function uniqueEmail(prefix = 'buyer'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}@example.com`;
}

export interface RegisteredUser {
  email: string;
  password: string;
  username: string;
  token: string;
  sign: string;
  uid: number;
  cookies: string[];
}

/** A fresh captcha and its right answer, as the `key` and `dots` of a request it guards. */
async function solvedCaptcha(server: TestApp): Promise<{ dots: string; key: string }> {
  return { dots: TEST_CAPTCHA, key: await newCaptcha(server) };
}

/** A registration that passes every check: a fresh name, email and captcha, then `overrides`. */
async function registrationBody(server: TestApp, overrides: Record<string, unknown> = {}) {
  return {
    username: `u${Math.random().toString(36).slice(2, 12)}`,
    mobile: '13812345678',
    email: uniqueEmail(),
    password: 'correct horse battery',
    ...(await solvedCaptcha(server)),
    ...overrides,
  };
}

/** Posts a registration: `registrationBody` with `overrides`, answered as it comes. */
export async function registerRequest(
  server: TestApp,
  overrides: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return server.request('/v1/user/registe', {
    method: 'POST',
    body: await registrationBody(server, overrides),
    headers,
  });
}

/** Registers a buyer through the API (signed in by the answer) and returns the session. */
export async function registerUser(
  server: TestApp,
  overrides: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<RegisteredUser> {
  const body = await registrationBody(server, overrides);
  const response = await server.request('/v1/user/registe', { method: 'POST', body, headers });
  if (response.body.code !== 200) throw new Error(`register: ${response.text}`);
  return {
    email: body.email as string,
    password: body.password as string,
    username: body.username as string,
    token: response.body.data.access_token,
    sign: response.body.data.access_sign,
    uid: response.body.data.user.uid,
    cookies: response.headers.getSetCookie(),
  };
}

export async function loginRequest(
  server: TestApp,
  email: string,
  password: string,
  headers: Record<string, string> = {},
) {
  return server.request('/v1/user/login', {
    method: 'POST',
    body: { email, password, ...(await solvedCaptcha(server)) },
    headers,
  });
}

export function cookieValue(setCookies: string[], name: string): string | undefined {
  for (const cookie of setCookies) {
    const match = new RegExp(`^${name}=([^;]*)`).exec(cookie);
    if (match) return match[1];
  }
  return undefined;
}

export function authHeaders(
  user: { token: string; sign: string },
  extra: Record<string, string> = {},
): Record<string, string> {
  return { token: user.token, sign: user.sign, ...extra };
}
