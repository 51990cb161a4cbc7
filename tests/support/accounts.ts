import type { TestServer } from './test-server';

/** The answer every captcha accepts in account tests (CAPTCHA_TEST_ANSWER). */
export const TEST_CAPTCHA = '2468';

/** Server settings for account tests: a known captcha answer and generous limits unless a test lowers them. */
export const ACCOUNT_TEST_ENV = {
  CAPTCHA_TEST_ANSWER: TEST_CAPTCHA,
  RATE_LIMITS: 'captcha.ip=1000/60,register.ip=1000/60,login.ip=1000/60,sendCode.ip=1000/60,loginByCode.ip=1000/60',
};

export async function newCaptcha(server: TestServer, headers: Record<string, string> = {}): Promise<string> {
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

export async function registerUser(
  server: TestServer,
  overrides: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<RegisteredUser> {
  const email = (overrides.email as string) ?? uniqueEmail();
  const body = {
    username: `u${Math.random().toString(36).slice(2, 12)}`,
    mobile: '13812345678',
    email,
    password: 'correct horse battery',
    dots: TEST_CAPTCHA,
    key: await newCaptcha(server),
    ...overrides,
  };
  const response = await server.request('/v1/user/registe', { method: 'POST', body, headers });
  if (response.body.code !== 200) throw new Error(`register: ${response.text}`);
  return {
    email,
    password: body.password as string,
    username: body.username as string,
    token: response.body.data.access_token,
    sign: response.body.data.access_sign,
    uid: response.body.data.user.uid,
    cookies: response.headers.getSetCookie(),
  };
}

export async function loginRequest(server: TestServer, email: string, password: string, headers: Record<string, string> = {}) {
  return server.request('/v1/user/login', {
    method: 'POST',
    body: { email, password, dots: TEST_CAPTCHA, key: await newCaptcha(server) },
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

export function authHeaders(user: { token: string; sign: string }, extra: Record<string, string> = {}): Record<string, string> {
  return { token: user.token, sign: user.sign, ...extra };
}
