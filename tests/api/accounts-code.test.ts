import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema';
import { subjectKey } from '../../server/shared/rate-limits';
import {
  ACCOUNT_TEST_ENV,
  TEST_CAPTCHA,
  loginRequest,
  newCaptcha,
  registerUser,
  uniqueEmail,
} from '../support/accounts';
import { decodedMail, useFakeSmtp } from '../support/mail';
import { useTestApp } from '../support/test-server';

const smtp = useFakeSmtp();
const server = useTestApp(() => ({ ...ACCOUNT_TEST_ENV, SMTP_URL: smtp.url }));

async function sendCode(email: string, lang = 'en') {
  return server.request('/v1/user/sendCode', {
    method: 'POST',
    body: { email, dots: TEST_CAPTCHA, key: await newCaptcha(server) },
    headers: { lang },
  });
}

async function codeFor(email: string): Promise<string> {
  const mail = await smtp.waitFor((item) => item.to === email);
  return /verification code is (\d{6})|验证码是 (\d{6})/.exec(decodedMail(mail.raw))!.slice(1).find(Boolean)!;
}

/** A second code for the same address once the 60 s resend wait is over (the wait itself is tested above). */
async function sendCodeAgainLater(email: string) {
  await server.ctx.kv.delete(`code-resend:${subjectKey(email)}`);
  for (let index = smtp.inbox.length - 1; index >= 0; index--)
    if (smtp.inbox[index]!.to === email) smtp.inbox.splice(index, 1);
  const response = await sendCode(email);
  expect(response.body.code).toBe(200);
}

async function loginByCode(email: string, code: string, lang = 'en') {
  return server.request('/v1/user/loginByCode', { method: 'POST', body: { email, code }, headers: { lang } });
}

describe('POST /v1/user/sendCode', () => {
  it('emails a 6-digit code through SMTP in the request language and answers resend_after 60', async () => {
    const email = uniqueEmail('code');
    const response = await sendCode(email, 'zh-cn');
    expect(response.body).toEqual({ code: 200, msg: '验证码已发送，请查收邮件', data: { resend_after: 60 } });
    const code = await codeFor(email);
    expect(code).toMatch(/^\d{6}$/);
    const mail = decodedMail(smtp.inbox.find((item) => item.to === email)!.raw);
    expect(mail).toContain('您在 光织良品 的验证码');
    expect(mail).toContain('分钟内有效');
    expect(mail).toContain('光织良品');
  });

  it('answers the same for an email with an account and one without', async () => {
    const user = await registerUser(server);
    const known = await sendCode(user.email);
    const unknown = await sendCode(uniqueEmail('unknown'));
    expect(known.body).toEqual(unknown.body);
    expect(known.status).toBe(unknown.status);
  });

  it('blocks a resend for 60 seconds on the server, saying how long', async () => {
    const email = uniqueEmail('resend');
    expect((await sendCode(email)).body.code).toBe(200);
    const again = await sendCode(email);
    expect(again.status).toBe(429);
    expect(again.body.msg).toMatch(/^Please wait (5\d|60) seconds before requesting another code$/);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(50);
    expect((await sendCode(email, 'zh-cn')).body.msg).toMatch(/^请在 \d+ 秒后再获取验证码$/);
  });

  it('needs a right captcha', async () => {
    const response = await server.request('/v1/user/sendCode', {
      method: 'POST',
      body: { email: uniqueEmail('cap'), dots: '1', key: await newCaptcha(server) },
      headers: { lang: 'en' },
    });
    expect(response.body.code).toBe(4001);
  });

  it('says "Please enter your email address" without an email', async () => {
    const response = await server.request('/v1/user/sendCode', {
      method: 'POST',
      body: { dots: TEST_CAPTCHA, key: 'k' },
      headers: { lang: 'en' },
    });
    expect(response.body).toEqual({ code: 400, msg: 'Please enter your email address', data: null });
  });

  it('keeps the code hashed, for ten minutes', async () => {
    const email = uniqueEmail('stored');
    await sendCode(email);
    const code = await codeFor(email);
    const stored = await server.ctx.kv.get(`code:${subjectKey(email)}`);
    expect(stored).not.toContain(code);
    expect(await server.ctx.kv.ttlSeconds(`code:${subjectKey(email)}`)).toBeGreaterThan(590);
  });
});

describe('POST /v1/user/loginByCode', () => {
  it('logs an existing account in', async () => {
    const user = await registerUser(server);
    await sendCode(user.email);
    const response = await loginByCode(user.email, await codeFor(user.email));
    // The first proof of the address drops the password chosen before it (it may be a squatter's).
    expect(response.body).toMatchObject({
      code: 200,
      msg: 'Login successful',
      data: { user: { uid: user.uid, has_password: false } },
    });
    expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith('access_token='))).toBe(true);
  });

  it('locks out whoever registered the address before its owner proved it', async () => {
    const squatter = await registerUser(server);
    await sendCode(squatter.email);
    const owner = await loginByCode(squatter.email, await codeFor(squatter.email));
    expect(owner.body.code).toBe(200);
    const squatterSession = await server.request('/v1/user/info', {
      headers: { token: squatter.token, sign: squatter.sign },
    });
    expect(squatterSession.body.code).toBe(302);
    const squatterLogin = await loginRequest(server, squatter.email, squatter.password);
    expect(squatterLogin.body.code).toBe(400);
    const ownerSession = await server.request('/v1/user/info', {
      headers: { token: owner.body.data.access_token, sign: owner.body.data.access_sign },
    });
    expect(ownerSession.body.data).toMatchObject({ uid: squatter.uid, has_password: false });

    // Later proofs change nothing: a password the owner sets stays.
    await server.request('/v1/user/password', {
      method: 'PUT',
      body: { new_password: 'owner chose this one' },
      headers: { token: owner.body.data.access_token, sign: owner.body.data.access_sign },
    });
    await sendCodeAgainLater(squatter.email);
    const again = await loginByCode(squatter.email, await codeFor(squatter.email));
    expect(again.body.data.user.has_password).toBe(true);
  });

  it('opens an account for a new email, named after its local part', async () => {
    const email = `fresh.buyer+${Date.now()}@example.com`;
    await sendCode(email);
    const response = await loginByCode(email, await codeFor(email));
    expect(response.body.data.user).toMatchObject({ email, has_password: false, mobile: '' });
    expect(response.body.data.user.username).toMatch(/^fresh\.buyer\d+$/);
    const [row] = await server.ctx.db.select().from(users).where(eq(users.email, email));
    if (!row) throw new Error(`no user row for ${email} after the code sign-in`);
    expect(row.passwordHash).toBeNull();
    // Without a password, setting one needs no current password.
    const set = await server.request('/v1/user/password', {
      method: 'PUT',
      body: { new_password: 'first password ever' },
      headers: { token: response.body.data.access_token, sign: response.body.data.access_sign },
    });
    expect(set.body.code).toBe(200);
  });

  it('makes the username unique when the local part is taken', async () => {
    const first = await registerUser(server, { username: `taken${process.pid}` });
    const email = `taken${process.pid}@other.example.com`;
    expect(first.uid).toBeGreaterThan(0);
    await sendCode(email);
    const response = await loginByCode(email, await codeFor(email));
    expect(response.body.data.user.username).toMatch(new RegExp(`^taken${process.pid}\\d{4,5}$`));
  });

  it('uses a code once', async () => {
    const email = uniqueEmail('once');
    await sendCode(email);
    const code = await codeFor(email);
    expect((await loginByCode(email, code)).body.code).toBe(200);
    expect((await loginByCode(email, code)).body).toEqual({
      code: 400,
      msg: 'The verification code is wrong or has expired',
      data: null,
    });
  });

  it('voids the code after five wrong guesses, even for the right one after', async () => {
    const email = uniqueEmail('brute');
    await sendCode(email);
    const code = await codeFor(email);
    const wrong = code === '000000' ? '000001' : '000000';
    const messages = [];
    for (let attempt = 0; attempt < 5; attempt++) messages.push((await loginByCode(email, wrong)).body.msg);
    expect(messages.slice(0, 4)).toEqual(Array(4).fill('The verification code is wrong or has expired'));
    expect(messages[4]).toBe('Too many wrong codes. Please request a new code');
    expect((await loginByCode(email, code)).body.code).toBe(400);
  });

  it.each([
    [{ code: undefined }, 'en', 'Please enter the verification code'],
    [{ code: '' }, 'zh-cn', '请输入验证码'],
    [{ code: '12ab56' }, 'en', 'The verification code is wrong or has expired'],
    [{ email: undefined }, 'zh-cn', '请输入邮箱地址'],
  ])('refuses %o: "%s"', async (overrides, lang, message) => {
    const response = await server.request('/v1/user/loginByCode', {
      method: 'POST',
      body: { email: 'a@example.com', code: '123456', ...overrides },
      headers: { lang },
    });
    expect(response.body).toEqual({ code: 400, msg: message, data: null });
  });
});

describe('code rate limits', () => {
  const limited = useTestApp(() => ({
    CAPTCHA_TEST_ANSWER: TEST_CAPTCHA,
    SMTP_URL: smtp.url,
    RATE_LIMITS: 'sendCode.ip=3/600,sendCode.email=1/3600,loginByCode.ip=3/600,loginByCode.email=2/600',
    TRUST_PROXY: 'true',
  }));

  const send = async (email: string) =>
    limited.request('/v1/user/sendCode', {
      method: 'POST',
      body: { email, dots: TEST_CAPTCHA, key: await newCaptcha(limited) },
    });

  it('limits codes per email (beyond the 60 s resend wait) and per IP', async () => {
    const email = uniqueEmail('limited');
    expect((await send(email)).status).toBe(200);
    await limited.ctx.kv.delete(`code-resend:${subjectKey(email)}`); // the minute passed
    expect((await send(email)).status).toBe(429);
    expect((await send(uniqueEmail('limited'))).status).toBe(200); // third from this IP
    expect((await send(uniqueEmail('limited'))).status).toBe(429); // fourth
  });

  it('limits code guesses per email and per IP', async () => {
    const email = uniqueEmail('guess');
    const login = (address: string) =>
      limited.request('/v1/user/loginByCode', { method: 'POST', body: { email: address, code: '123456' } });
    expect((await login(email)).status).toBe(400);
    expect((await login(email)).status).toBe(400);
    expect((await login(email)).status).toBe(429);
    expect((await login(uniqueEmail('guess'))).status).toBe(429);
  });

  it("does not let a stranger's guesses block the owner's code sign-in from another address", async () => {
    const email = uniqueEmail('owner');
    const guess = (ip: string) =>
      limited.request('/v1/user/loginByCode', {
        method: 'POST',
        body: { email, code: '123456' },
        headers: { 'x-forwarded-for': ip },
      });
    expect((await guess('198.51.100.40')).status).toBe(400);
    expect((await guess('198.51.100.40')).status).toBe(400);
    expect((await guess('198.51.100.40')).status).toBe(429);
    expect((await guess('203.0.113.40')).status).toBe(400);
  });
});
