import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema';
import {
  ACCOUNT_TEST_ENV,
  TEST_CAPTCHA,
  authHeaders,
  cookieValue,
  newCaptcha,
  registerRequest,
  registerUser,
  uniqueEmail,
} from '../support/accounts';
import { useTestApp } from '../support/test-server';

const server = useTestApp(ACCOUNT_TEST_ENV);

function postRegister(overrides: Record<string, unknown>, lang = 'en') {
  return registerRequest(server, overrides, { lang });
}

describe('POST /v1/user/registe', () => {
  it('creates the account and logs it in, like a login', async () => {
    const body = {
      sex: 2,
      username: 'Mixed Case',
      mobile: '13912345678',
      email: uniqueEmail('Mixed.Case').toUpperCase(),
    };
    const response = await postRegister(body);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      code: 200,
      msg: 'Registration successful',
      data: {
        access_token: expect.any(String),
        access_sign: expect.any(String),
        expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        user: {
          username: body.username,
          email: body.email.toLowerCase(),
          mobile: '139****5678',
          sex: 2,
          has_password: true,
          avatar: '',
        },
      },
    });
    const cookies = response.headers.getSetCookie();
    expect(cookieValue(cookies, 'access_token')).toBe(response.body.data.access_token);
    expect(cookies.find((cookie) => cookie.startsWith('access_token='))).toMatch(/HttpOnly/i);
    expect(cookieValue(cookies, 'csrf_token')).toBeTruthy();
    const info = await server.request('/v1/user/info', {
      headers: authHeaders({ token: response.body.data.access_token, sign: response.body.data.access_sign }),
    });
    expect(info.body.data).toMatchObject({ uid: response.body.data.user.uid, email: body.email.toLowerCase() });
  });

  it('stores a scrypt hash with a per-user salt, never the password', async () => {
    const first = await registerUser(server, { password: 'same password twice' });
    const second = await registerUser(server, { password: 'same password twice' });
    const rows = await server.ctx.db.select().from(users).where(eq(users.id, first.uid));
    const [other] = await server.ctx.db.select().from(users).where(eq(users.id, second.uid));
    if (!other) throw new Error(`no user row for the second user ${second.uid}`);
    expect(rows[0]?.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(rows[0]?.passwordHash).not.toContain('same password');
    expect(rows[0]?.passwordHash).not.toBe(other.passwordHash);
  });

  it('names a duplicate email or username clearly, in both languages', async () => {
    const existing = await registerUser(server);
    const sameEmail = await postRegister({ email: existing.email.toUpperCase() });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body).toEqual({
      code: 409,
      msg: 'This email is already registered. Please log in instead',
      data: null,
    });
    const sameName = await postRegister({ username: existing.username }, 'zh-cn');
    expect(sameName.body).toEqual({ code: 409, msg: '该用户名已被占用', data: null });
  });

  it('takes Chinese mobiles by SPEC rule and international ones through libphonenumber', async () => {
    for (const mobile of ['12812345678', '1381234567', '138123456789', '23812345678']) {
      const response = await postRegister({ mobile }, 'zh-cn');
      expect(response.body).toEqual({ code: 400, msg: '请输入正确的手机号码', data: null });
    }
    const english = await postRegister({ mobile: '+44 20 1234' });
    expect(english.body.msg).toBe('Please enter a valid mobile number');
    const uk = await registerUser(server, { mobile: '+44 7911 123456' });
    const [row] = await server.ctx.db.select().from(users).where(eq(users.id, uk.uid));
    expect(row?.mobile).toBe('+447911123456');
    const info = await server.request('/v1/user/info', { headers: authHeaders(uk) });
    expect(info.body.data.mobile).toBe('+4479****3456');
    const us = await registerUser(server, { mobile: '+1 (415) 555-2671' });
    expect(us.uid).toBeGreaterThan(0);
  });

  it.each([
    [{ email: undefined }, 'en', 'Please enter your email address'],
    [{ email: 'not-an-email' }, 'en', 'Please enter a valid email address'],
    [{ email: 'not-an-email' }, 'zh-cn', '请输入有效的邮箱地址'],
    [{ mobile: undefined }, 'en', 'Please enter your mobile number'],
    [{ password: 'short' }, 'en', 'Password must be at least 8 characters'],
    [{ password: 'short' }, 'zh-cn', '密码至少需要 8 个字符'],
    [{ username: 'a' }, 'en', 'Username must be at least 2 characters'],
    [{ username: '<script>' }, 'en', 'The username may contain letters, digits, spaces, dots, hyphens and underscores'],
    [{ sex: 3 }, 'en', 'Sex must be one of 0, 1, 2'],
    [{ avatar: 'javascript:alert(1)' }, 'en', 'Avatar must be an uploaded image or an https address'],
    [{ dots: undefined }, 'en', 'Please enter the captcha'],
    [{ dots: '' }, 'zh-cn', '请输入图形验证码'],
  ])('refuses %o with "%s" message', async (overrides, lang, message) => {
    const response = await postRegister(overrides, lang);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 400, msg: message, data: null });
  });

  it('refuses a wrong captcha with its own code and uses the captcha up', async () => {
    const key = await newCaptcha(server);
    const wrong = await postRegister({ key, dots: '0000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      code: 4001,
      msg: 'The captcha answer is wrong or has expired. Please enter the new one',
      data: null,
    });
    const replay = await postRegister({ key, dots: TEST_CAPTCHA });
    expect(replay.body.code).toBe(4001);
  });
});

describe('register rate limits', () => {
  const limited = useTestApp({
    CAPTCHA_TEST_ANSWER: TEST_CAPTCHA,
    RATE_LIMITS: 'register.ip=3/600,register.email=2/600',
  });

  it('stops one IP after the limit, with Retry-After and a localized message', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      const response = await limited.request('/v1/user/registe', {
        method: 'POST',
        body: {
          username: `ip${attempt}x`,
          mobile: '13812345678',
          email: uniqueEmail('ip'),
          password: 'password123',
          dots: '1',
          key: 'none',
        },
        headers: { lang: 'zh-cn' },
      });
      statuses.push(response.status);
      if (response.status === 429) {
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(500);
        expect(response.body.msg).toMatch(/^请求过于频繁，请在 \d+ 秒后重试$/);
      }
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
  });
});
