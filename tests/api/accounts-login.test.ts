import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../server/db/schema';
import {
  ACCOUNT_TEST_ENV,
  GENEROUS_RATE_LIMITS,
  TEST_CAPTCHA,
  authHeaders,
  cookieValue,
  loginRequest,
  newCaptcha,
  registerUser,
  uniqueEmail,
} from '../support/accounts';
import { startTestApp, useTestApp, type TestApp } from '../support/test-server';

const server = useTestApp(ACCOUNT_TEST_ENV);

describe('POST /v1/user/login', () => {
  it('answers tokens, expiry and the user, and sets the httpOnly Lax session cookie and the CSRF cookie', async () => {
    const user = await registerUser(server, { mobile: '15012345678' });
    const response = await loginRequest(server, user.email.toUpperCase(), user.password, { lang: 'zh-cn' });
    expect(response.body).toMatchObject({
      code: 200,
      msg: '登录成功',
      data: {
        access_token: expect.any(String),
        access_sign: expect.any(String),
        user: { uid: user.uid, email: user.email, mobile: '150****5678' },
      },
    });
    const lifetime = Date.parse(response.body.data.expires_at) - Date.now();
    expect(lifetime).toBeGreaterThan(29 * 24 * 3600 * 1000);
    const cookies = response.headers.getSetCookie();
    const sessionCookie = cookies.find((cookie) => cookie.startsWith('access_token='))!;
    expect(sessionCookie).toMatch(/HttpOnly/i);
    expect(sessionCookie).toMatch(/SameSite=Lax/i);
    expect(sessionCookie).not.toMatch(/Secure/i);
    expect(sessionCookie).toMatch(/Path=\//);
    expect(cookieValue(cookies, 'csrf_token')).toMatch(/^\w{32}$/);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    // The cookie alone works on reads; a cookie write needs the CSRF echo.
    const token = cookieValue(cookies, 'access_token')!;
    const csrf = cookieValue(cookies, 'csrf_token')!;
    expect((await server.request('/v1/user/info', { cookies: { access_token: token } })).body.data.uid).toBe(user.uid);
    const write = await server.request('/v1/user/info', {
      method: 'PUT',
      body: { sex: 1 },
      cookies: { access_token: token, csrf_token: csrf },
    });
    expect(write.status).toBe(403);
    const echoed = await server.request('/v1/user/info', {
      method: 'PUT',
      body: { sex: 1 },
      cookies: { access_token: token, csrf_token: csrf },
      headers: { 'x-csrf-token': csrf },
    });
    expect(echoed.body.data.sex).toBe(1);
  });

  it('gives one message for an unknown email and a wrong password, in both languages', async () => {
    const user = await registerUser(server);
    const wrongPassword = await loginRequest(server, user.email, 'not the password', { lang: 'en' });
    const unknownEmail = await loginRequest(server, uniqueEmail('nobody'), 'not the password', { lang: 'en' });
    expect(wrongPassword.body).toEqual({ code: 400, msg: 'Incorrect email or password', data: null });
    expect(unknownEmail.body).toEqual(wrongPassword.body);
    expect((await loginRequest(server, user.email, 'nope', { lang: 'zh-cn' })).body.msg).toBe('邮箱或密码错误');
  });

  it('spends about the same time on an unknown email as on a wrong password (a dummy scrypt runs)', async () => {
    const user = await registerUser(server);
    const median = async (email: string) => {
      const times: number[] = [];
      for (let attempt = 0; attempt < 3; attempt++) {
        const key = await newCaptcha(server);
        const started = performance.now();
        await server.request('/v1/user/login', {
          method: 'POST',
          body: { email, password: 'not it', dots: TEST_CAPTCHA, key },
        });
        times.push(performance.now() - started);
      }
      return times.sort((a, b) => a - b)[1]!;
    };
    const known = await median(user.email);
    const unknown = await median(uniqueEmail('timing'));
    // Without the dummy hash an unknown email answers in a few milliseconds, tens of times faster.
    expect(unknown / known).toBeGreaterThan(0.3);
    expect(unknown / known).toBeLessThan(3);
  });

  it('answers a wrong captcha with code 4001 before looking at the password', async () => {
    const user = await registerUser(server);
    const response = await server.request('/v1/user/login', {
      method: 'POST',
      body: { email: user.email, password: user.password, dots: '99999', key: await newCaptcha(server) },
      headers: { lang: 'zh-cn' },
    });
    expect(response.body).toEqual({ code: 4001, msg: '图形验证码错误或已过期，请重新输入', data: null });
    const unknownKey = await server.request('/v1/user/login', {
      method: 'POST',
      body: { email: user.email, password: user.password, dots: TEST_CAPTCHA, key: 'no-such-captcha' },
    });
    expect(unknownKey.body.code).toBe(4001);
  });

  it.each([
    [{ email: '' }, 'en', 'Please enter your email address'],
    [{ email: '' }, 'zh-cn', '请输入邮箱地址'],
    [{ email: 'x@' }, 'en', 'Please enter a valid email address'],
    [{ password: undefined }, 'en', 'Please enter your password'],
    [{ key: undefined }, 'en', 'Please enter the captcha'],
  ])('refuses %o: "%s"', async (overrides, lang, message) => {
    const body = { email: 'someone@example.com', password: 'x', dots: TEST_CAPTCHA, key: 'k', ...overrides };
    const response = await server.request('/v1/user/login', { method: 'POST', body, headers: { lang } });
    expect(response.body).toEqual({ code: 400, msg: message, data: null });
  });
});

describe('failed sign-ins slow the failing client, not the account', () => {
  let locking: TestApp;
  // Client addresses come from X-Forwarded-For behind a trusted proxy, so one test can be several clients.
  const from = (ip: string, headers: Record<string, string> = {}) => ({ 'x-forwarded-for': ip, ...headers });
  const lockKey = async (email: string, client: string) => {
    const { subjectKey } = await import('../../server/shared/rate-limits');
    return `login:lock:${subjectKey(email)}:${subjectKey(client)}`;
  };
  beforeAll(async () => {
    locking = await startTestApp({
      ...ACCOUNT_TEST_ENV,
      TRUST_PROXY: 'true',
      RATE_LIMITS: `${GENEROUS_RATE_LIMITS},login.failures.client=3/3600,login.lock.seconds=30/900,login.failures.account=6/3600,login.slow.seconds=10/10`,
    });
  });
  afterAll(async () => locking?.close());

  it('locks the failing client out of the account with a doubling delay, in both languages', async () => {
    const user = await registerUser(locking);
    const attacker = from('198.51.100.7');
    for (let attempt = 0; attempt < 3; attempt++)
      expect((await loginRequest(locking, user.email, 'wrong', attacker)).body.code).toBe(400);
    const locked = await loginRequest(locking, user.email, user.password, from('198.51.100.7', { lang: 'en' }));
    expect(locked.status).toBe(429);
    expect(locked.body.msg).toMatch(
      /^Too many failed sign-in attempts from here. Please try again in (2[6-9]|30) seconds$/,
    );
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(25);
    expect(Number(locked.headers.get('retry-after'))).toBeLessThanOrEqual(30);
    const lockedZh = await loginRequest(locking, user.email, 'wrong', from('198.51.100.7', { lang: 'zh-cn' }));
    expect(lockedZh.body.msg).toMatch(/^此处登录失败次数过多，请在 \d+ 秒后重试$/);

    // The lock lifts (simulated); the next failure locks for twice as long.
    await locking.ctx.kv.delete(await lockKey(user.email, '198.51.100.7'));
    expect((await loginRequest(locking, user.email, 'wrong', attacker)).body.code).toBe(400);
    const longer = await loginRequest(locking, user.email, user.password, attacker);
    expect(Number(longer.headers.get('retry-after'))).toBeGreaterThan(55);
    expect(Number(longer.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  });

  it('lets the owner in with the right password from another address while the attacker is locked', async () => {
    const user = await registerUser(locking);
    for (let attempt = 0; attempt < 5; attempt++)
      await loginRequest(locking, user.email, 'wrong', from('198.51.100.8'));
    expect((await loginRequest(locking, user.email, user.password, from('198.51.100.8'))).status).toBe(429);
    const owner = await loginRequest(locking, user.email, user.password, from('203.0.113.20'));
    expect(owner.status).toBe(200);
    expect(owner.body.data.user.email).toBe(user.email);
  });

  it("slows every unknown client to one try per interval when many addresses guess at one account, but not the owner's known address", async () => {
    const user = await registerUser(locking);
    // The owner has signed in from this address before.
    expect((await loginRequest(locking, user.email, user.password, from('203.0.113.30'))).status).toBe(200);
    // Six failures spread over three addresses (two each: none of them is locked).
    for (const ip of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) {
      for (let attempt = 0; attempt < 2; attempt++)
        expect((await loginRequest(locking, user.email, 'wrong', from(ip))).status).toBe(400);
    }
    // A new address may try once, then waits seconds (an interval of 10), not minutes.
    const firstTry = Date.now();
    expect((await loginRequest(locking, user.email, 'wrong', from('192.0.2.4'))).status).toBe(400);
    const slowed = await loginRequest(locking, user.email, 'wrong', from('192.0.2.4', { lang: 'en' }));
    const secondsSinceFirstTry = (Date.now() - firstTry) / 1000;
    expect(slowed.status).toBe(429);
    const wait =
      /^This account has had many failed sign-in attempts, so each try must wait. Please try again in (\d+) seconds$/.exec(
        slowed.body.msg,
      );
    expect(wait, slowed.body.msg).not.toBeNull();
    // What is left of the interval, however slowly this machine ran the two tries.
    expect(Number(wait![1])).toBeLessThanOrEqual(10);
    expect(Number(wait![1])).toBeGreaterThanOrEqual(Math.floor(10 - secondsSinceFirstTry));
    expect(Number(slowed.headers.get('retry-after'))).toBe(Number(wait![1]));
    // A clean client with the right password gets in on its first try.
    expect((await loginRequest(locking, user.email, user.password, from('203.0.113.31'))).status).toBe(200);
    // The owner's known address is not slowed at all, even right after a failure.
    expect((await loginRequest(locking, user.email, 'typo', from('203.0.113.30'))).status).toBe(400);
    expect((await loginRequest(locking, user.email, user.password, from('203.0.113.30'))).status).toBe(200);
  });

  it('treats unknown emails the same way, so a lock reveals nothing', async () => {
    const email = uniqueEmail('ghost');
    for (let attempt = 0; attempt < 3; attempt++) await loginRequest(locking, email, 'wrong', from('198.51.100.9'));
    expect((await loginRequest(locking, email, 'wrong', from('198.51.100.9'))).status).toBe(429);
  });

  it('forgives a client its failures once it signs in', async () => {
    const user = await registerUser(locking);
    for (let attempt = 0; attempt < 2; attempt++)
      await loginRequest(locking, user.email, 'wrong', from('198.51.100.10'));
    expect((await loginRequest(locking, user.email, user.password, from('198.51.100.10'))).body.code).toBe(200);
    for (let attempt = 0; attempt < 2; attempt++)
      await loginRequest(locking, user.email, 'wrong', from('198.51.100.10'));
    expect((await loginRequest(locking, user.email, user.password, from('198.51.100.10'))).body.code).toBe(200);
  });
});

describe('login rate limits', () => {
  const limited = useTestApp({
    CAPTCHA_TEST_ANSWER: TEST_CAPTCHA,
    RATE_LIMITS: `${GENEROUS_RATE_LIMITS},login.ip=4/600`,
  });

  it('limits attempts per client address across accounts', async () => {
    for (let attempt = 0; attempt < 4; attempt++)
      expect((await loginRequest(limited, uniqueEmail('limit'), 'x')).status).toBe(400);
    const fifth = await loginRequest(limited, uniqueEmail('limit'), 'x', { lang: 'en' });
    expect(fifth.status).toBe(429);
    expect(fifth.body.msg).toMatch(/^Too many requests. Please try again in \d+ seconds$/);
    expect(Number(fifth.headers.get('retry-after'))).toBeGreaterThan(500);
  });
});

describe('sessions: logout, profile and password', () => {
  it('logs out this session only, clearing the cookie', async () => {
    const user = await registerUser(server);
    const second = (await loginRequest(server, user.email, user.password)).body.data;
    const logout = await server.request('/v1/user/logout', {
      method: 'POST',
      body: {},
      headers: authHeaders(user, { lang: 'en' }),
    });
    expect(logout.body).toEqual({ code: 200, msg: 'Logged out', data: null });
    expect(logout.headers.getSetCookie().find((cookie) => cookie.startsWith('access_token='))).toMatch(
      /access_token=;.*(Expires=Thu, 01 Jan 1970|Max-Age=0)/,
    );
    expect((await server.request('/v1/user/info', { headers: authHeaders(user) })).body.code).toBe(302);
    expect(
      (await server.request('/v1/user/info', { headers: { token: second.access_token, sign: second.access_sign } }))
        .body.code,
    ).toBe(200);
  });

  it('logs out every session with all: true', async () => {
    const user = await registerUser(server);
    const second = (await loginRequest(server, user.email, user.password)).body.data;
    await server.request('/v1/user/logout', { method: 'POST', body: { all: true }, headers: authHeaders(user) });
    expect(
      (await server.request('/v1/user/info', { headers: { token: second.access_token, sign: second.access_sign } }))
        .body.code,
    ).toBe(302);
  });

  it('needs a session to log out (301)', async () => {
    expect((await server.request('/v1/user/logout', { method: 'POST', body: {} })).body.code).toBe(301);
  });

  it('GET /user/info shows the profile fields', async () => {
    const user = await registerUser(server, { sex: 1, avatar: '/uploads/2026-01/abc.webp' });
    const info = await server.request('/v1/user/info', { headers: authHeaders(user) });
    expect(info.body.data).toEqual({
      uid: user.uid,
      id: user.uid,
      username: user.username,
      email: user.email,
      mobile: '138****5678',
      avatar: '/uploads/2026-01/abc.webp',
      sex: 1,
      has_password: true,
      created_at: expect.stringMatching(/^\d{4}-/),
    });
    expect(info.headers.get('cache-control')).toBe('private, no-store');
  });

  it('PUT /user/info changes username, avatar and sex, refusing a taken username', async () => {
    const user = await registerUser(server);
    const other = await registerUser(server);
    const changed = await server.request('/v1/user/info', {
      method: 'PUT',
      body: { username: `${user.username}x`, avatar: 'https://lh3.googleusercontent.com/a/pic', sex: 2 },
      headers: authHeaders(user, { lang: 'en' }),
    });
    expect(changed.body).toMatchObject({
      code: 200,
      msg: 'Saved',
      data: { username: `${user.username}x`, avatar: 'https://lh3.googleusercontent.com/a/pic', sex: 2 },
    });
    const taken = await server.request('/v1/user/info', {
      method: 'PUT',
      body: { username: other.username },
      headers: authHeaders(user, { lang: 'en' }),
    });
    expect(taken.body).toEqual({ code: 409, msg: 'This username is already taken', data: null });
    const bad = await server.request('/v1/user/info', {
      method: 'PUT',
      body: { sex: 5 },
      headers: authHeaders(user, { lang: 'en' }),
    });
    expect(bad.body.msg).toBe('Sex must be one of 0, 1, 2');
    expect((await server.request('/v1/user/info', { method: 'PUT', body: { sex: 1 } })).body.code).toBe(301);
  });

  it('PUT /user/password checks the current password and logs out the other sessions', async () => {
    const user = await registerUser(server);
    const other = (await loginRequest(server, user.email, user.password)).body.data;
    const missing = await server.request('/v1/user/password', {
      method: 'PUT',
      body: { new_password: 'brand new secret' },
      headers: authHeaders(user, { lang: 'en' }),
    });
    expect(missing.body).toEqual({ code: 400, msg: 'Please enter your current password', data: null });
    const wrong = await server.request('/v1/user/password', {
      method: 'PUT',
      body: { old_password: 'guess', new_password: 'brand new secret' },
      headers: authHeaders(user, { lang: 'zh-cn' }),
    });
    expect(wrong.body).toEqual({ code: 400, msg: '当前密码不正确', data: null });
    const short = await server.request('/v1/user/password', {
      method: 'PUT',
      body: { old_password: user.password, new_password: 'short' },
      headers: authHeaders(user, { lang: 'en' }),
    });
    expect(short.body.msg).toBe('New password must be at least 8 characters');
    const ok = await server.request('/v1/user/password', {
      method: 'PUT',
      body: { old_password: user.password, new_password: 'brand new secret' },
      headers: authHeaders(user),
    });
    expect(ok.body.code).toBe(200);
    expect((await server.request('/v1/user/info', { headers: authHeaders(user) })).body.code).toBe(200);
    expect(
      (await server.request('/v1/user/info', { headers: { token: other.access_token, sign: other.access_sign } })).body
        .code,
    ).toBe(302);
    expect((await loginRequest(server, user.email, user.password)).body.code).toBe(400);
    expect((await loginRequest(server, user.email, 'brand new secret')).body.code).toBe(200);
  });
});

describe('sliding expiry', () => {
  async function nearExpiry(user: { token: string; sign: string }, days: number) {
    const info = await server.request('/v1/user/info', { headers: authHeaders(user) });
    const [row] = await server.ctx.db.select().from(sessions).where(eq(sessions.userId, info.body.data.uid));
    if (!row) throw new Error(`no session row for user ${info.body.data.uid}`);
    await server.ctx.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + days * 24 * 3600 * 1000) })
      .where(eq(sessions.userId, row.userId));
  }

  it('leaves a fresh session alone', async () => {
    const user = await registerUser(server);
    const info = await server.request('/v1/user/info', { headers: authHeaders(user) });
    expect(info.headers.get('refresh-token')).toBeNull();
  });

  it('hands a header client a new token, sign and expiry near the end; the old token has a short grace', async () => {
    const user = await registerUser(server);
    await nearExpiry(user, 5);
    const info = await server.request('/v1/user/info', { headers: authHeaders(user) });
    expect(info.body.code).toBe(200);
    const token = info.headers.get('refresh-token')!;
    const sign = info.headers.get('refresh-sign')!;
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(token).not.toBe(user.token);
    expect(Date.parse(info.headers.get('refresh-token-expire')!) - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);
    expect(info.headers.getSetCookie().some((cookie) => cookie.startsWith('access_token='))).toBe(false);
    // The new pair works; the old token still works for the grace period, without another refresh.
    expect((await server.request('/v1/user/info', { headers: { token, sign } })).body.data.uid).toBe(user.uid);
    const old = await server.request('/v1/user/info', { headers: authHeaders(user) });
    expect(old.body.code).toBe(200);
    expect(old.headers.get('refresh-token')).toBeNull();
    const [oldRow] = await server.ctx.db
      .select()
      .from(sessions)
      .where(
        eq(sessions.tokenHash, (await import('../../server/domains/customers/sessions.service')).hashToken(user.token)),
      );
    if (!oldRow) throw new Error('no session row for the old token');
    expect(oldRow.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(60_000);
    // The old sign does not fit the new token: the sign changes with the token.
    expect((await server.request('/v1/user/info', { headers: { token, sign: user.sign } })).body.code).toBe(302);
  });

  it('gives a cookie client a new cookie instead of headers', async () => {
    const user = await registerUser(server);
    await nearExpiry(user, 2);
    const info = await server.request('/v1/user/info', { cookies: { access_token: user.token } });
    expect(info.headers.get('refresh-token')).toBeNull();
    const fresh = cookieValue(info.headers.getSetCookie(), 'access_token');
    expect(fresh).toBeTruthy();
    expect(fresh).not.toBe(user.token);
    expect((await server.request('/v1/user/info', { cookies: { access_token: fresh! } })).body.data.uid).toBe(user.uid);
  });

  it('rotates once when concurrent requests arrive together', async () => {
    const user = await registerUser(server);
    await nearExpiry(user, 1);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => server.request('/v1/user/info', { headers: authHeaders(user) })),
    );
    expect(answers.every((answer) => answer.body.code === 200)).toBe(true);
    expect(answers.filter((answer) => answer.headers.get('refresh-token')).length).toBe(1);
  });

  it('answers 302 for a session past its end, clearing the cookie', async () => {
    const user = await registerUser(server);
    await nearExpiry(user, -1);
    const expired = await server.request('/v1/user/info', { cookies: { access_token: user.token } });
    expect(expired.body.code).toBe(302);
    expect(expired.headers.getSetCookie().find((cookie) => cookie.startsWith('access_token='))).toMatch(
      /access_token=;/,
    );
  });
});
