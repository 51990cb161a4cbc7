import { eq } from 'drizzle-orm';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema';
import { ACCOUNT_TEST_ENV, authHeaders, cookieValue, registerUser, uniqueEmail } from '../support/accounts';
import { startTestServer, useTestServer, type TestServer } from '../support/test-server';

const CLIENT_ID = 'shop-test-client';
const issuer = new OAuth2Server();
let server: TestServer;
/** Claims the mock issuer puts into the next tokens it signs (Google's sub, email, email_verified...). */
let claims: Record<string, unknown> = {};

beforeAll(async () => {
  await issuer.issuer.keys.generate('RS256');
  await issuer.start(0, '127.0.0.1');
  issuer.service.on('beforeTokenSigning', (token) => Object.assign(token.payload, claims));
  server = await startTestServer({
    ...ACCOUNT_TEST_ENV,
    GOOGLE_CLIENT_ID: CLIENT_ID,
    GOOGLE_CLIENT_SECRET: 'shop-test-secret',
    OIDC_ISSUER_OVERRIDE: issuer.issuer.url!,
  });
});
afterAll(async () => {
  await server?.close();
  await issuer.stop();
});
beforeEach(() => {
  claims = {};
});

function googleUser(overrides: Record<string, unknown> = {}) {
  return {
    sub: `google-${Math.random().toString(36).slice(2)}`,
    email: uniqueEmail('google'),
    email_verified: true,
    ...overrides,
  };
}

/** Runs the browser's part of the code flow: our auth_url, the issuer's redirect, our /token_url. */
async function codeFlow(body: Record<string, unknown> = { platform: 3 }, headers: Record<string, string> = {}) {
  const start = await server.request('/v1/user/login/platform', { method: 'POST', body, headers });
  expect(start.body.code).toBe(200);
  const authUrl = new URL(start.body.data.auth_url);
  const atIssuer = await fetch(authUrl, { redirect: 'manual' });
  const callback = new URL(atIssuer.headers.get('location')!);
  const finish = await server.request(callback.pathname + callback.search);
  return { authUrl, callback, finish };
}

describe('Google code flow (PKCE, state, nonce)', () => {
  it('builds an authorization URL with PKCE S256, state, nonce, scopes and our redirect URI', async () => {
    const response = await server.request('/v1/user/login/platform', { method: 'POST', body: { platform: 3 } });
    const url = new URL(response.body.data.auth_url);
    expect(url.origin + url.pathname).toBe(`${issuer.issuer.url}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: CLIENT_ID,
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      redirect_uri: `${server.url}/token_url`,
    });
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
  });

  it('creates an account for a new verified Google email, sets the cookie and returns to the page', async () => {
    claims = googleUser({ picture: 'https://lh3.googleusercontent.com/a/photo' });
    const { finish } = await codeFlow({ platform: 3, redirect: '/product/12?sku=3' }, { lang: 'en' });
    expect(finish.status).toBe(302);
    expect(finish.headers.get('location')).toBe('/en/product/12?sku=3');
    const token = cookieValue(finish.headers.getSetCookie(), 'access_token')!;
    expect(cookieValue(finish.headers.getSetCookie(), 'csrf_token')).toBeTruthy();
    const info = await server.request('/v1/user/info', { cookies: { access_token: token } });
    expect(info.body.data).toMatchObject({
      email: claims.email,
      avatar: 'https://lh3.googleusercontent.com/a/photo',
      has_password: false,
    });
  });

  it('links to the existing account with the same verified email', async () => {
    const existing = await registerUser(server);
    claims = googleUser({ email: existing.email });
    const { finish } = await codeFlow({ platform: 3 }, { lang: 'zh-cn' });
    expect(finish.headers.get('location')).toBe('/zh-cn/');
    const token = cookieValue(finish.headers.getSetCookie(), 'access_token')!;
    expect((await server.request('/v1/user/info', { cookies: { access_token: token } })).body.data.uid).toBe(
      existing.uid,
    );
    // Next time the Google subject alone finds the account, even if the email changed at Google.
    claims = { ...claims, email: uniqueEmail('changed') };
    const again = await codeFlow();
    const second = cookieValue(again.finish.headers.getSetCookie(), 'access_token')!;
    expect((await server.request('/v1/user/info', { cookies: { access_token: second } })).body.data.uid).toBe(
      existing.uid,
    );
  });

  it('never links by an unverified email', async () => {
    const existing = await registerUser(server);
    claims = googleUser({ email: existing.email, email_verified: false });
    const { finish } = await codeFlow({ platform: 3, redirect: '/my/order' }, { lang: 'en' });
    expect(finish.status).toBe(302);
    expect(finish.headers.get('location')).toBe('/en/?login_error=google');
    expect(cookieValue(finish.headers.getSetCookie(), 'access_token')).toBeUndefined();
  });

  it('sends a disabled account back with login_error=disabled and no session', async () => {
    const existing = await registerUser(server);
    await server.ctx.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, existing.uid));
    claims = googleUser({ email: existing.email });
    const { finish } = await codeFlow({ platform: 3 }, { lang: 'en' });
    expect(finish.status).toBe(302);
    expect(finish.headers.get('location')).toBe('/en/?login_error=disabled');
    expect(cookieValue(finish.headers.getSetCookie(), 'access_token')).toBeUndefined();
  });

  it('uses a state once: replaying the callback fails', async () => {
    claims = googleUser();
    const { callback, finish } = await codeFlow();
    expect(finish.headers.get('location')).toBe('/zh-cn/');
    const replay = await server.request(callback.pathname + callback.search, { headers: { lang: 'en' } });
    expect(replay.headers.get('location')).toBe('/en/?login_error=google');
  });

  it('refuses a callback with a made-up state or a forged code', async () => {
    const made = await server.request('/token_url?code=abc&state=made-up', { headers: { lang: 'en' } });
    expect(made.headers.get('location')).toBe('/en/?login_error=google');
    const start = await server.request('/v1/user/login/platform', {
      method: 'POST',
      body: { platform: 3 },
      headers: { lang: 'en' },
    });
    const state = new URL(start.body.data.auth_url).searchParams.get('state')!;
    const forged = await server.request(`/token_url?code=forged&state=${state}`);
    expect(forged.headers.get('location')).toBe('/en/?login_error=google');
  });

  it.each([
    '//evil.example/x',
    'https://evil.example/',
    '/\\evil.example',
    'relative',
    '/\t/evil.example',
    '/en\r\nSet-Cookie:x=1',
    'javascript:alert(1)',
    'http://127.0.0.1:3000@evil.example',
  ])('refuses the return path %j', async (redirect) => {
    const response = await server.request('/v1/user/login/platform', {
      method: 'POST',
      body: { platform: 3, redirect },
      headers: { lang: 'en' },
    });
    expect(response.body).toEqual({ code: 400, msg: 'Return path must be a path on this site', data: null });
  });

  it('refuses other platforms', async () => {
    const response = await server.request('/v1/user/login/platform', {
      method: 'POST',
      body: { platform: 1 },
      headers: { lang: 'en' },
    });
    expect(response.body.code).toBe(400);
  });
});

describe('Google ID token (token flow and One Tap)', () => {
  async function idToken(payload: Record<string, unknown>, expiresIn = 600) {
    return issuer.issuer.buildToken({
      expiresIn,
      scopesOrTransform: (_header, body) =>
        Object.assign(body, { aud: CLIENT_ID, iat: Math.floor(Date.now() / 1000), ...payload }),
    });
  }
  const post = (token: string, lang = 'en') =>
    server.request('/v1/user/login/platform', {
      method: 'POST',
      body: { platform: 3, id_token: token },
      headers: { lang },
    });

  it('refuses a disabled account with its message', async () => {
    const existing = await registerUser(server);
    await server.ctx.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, existing.uid));
    const response = await post(await idToken(googleUser({ email: existing.email })));
    expect(response.body).toEqual({
      code: 403,
      msg: 'This account has been disabled. Please contact the shop if you think this is a mistake',
      data: null,
    });
  });

  it('logs in with a valid token: same answer as a password login', async () => {
    const person = googleUser();
    const response = await post(await idToken(person));
    expect(response.body).toMatchObject({
      code: 200,
      msg: 'Login successful',
      data: { access_token: expect.any(String), access_sign: expect.any(String), user: { email: person.email } },
    });
    expect(cookieValue(response.headers.getSetCookie(), 'access_token')).toBe(response.body.data.access_token);
    expect(
      (
        await server.request('/v1/user/info', {
          headers: authHeaders({ token: response.body.data.access_token, sign: response.body.data.access_sign }),
        })
      ).body.code,
    ).toBe(200);
  });

  it('refuses another audience, another issuer, an expired token and a bad signature', async () => {
    const person = googleUser();
    const wrongAudience = await idToken({ ...person, aud: 'someone-else' });
    const wrongIssuer = await idToken({ ...person, iss: 'https://accounts.example.com' });
    const expired = await idToken({ ...person, exp: Math.floor(Date.now() / 1000) - 120 });
    const valid = await idToken(person);
    const [head, body] = valid.split('.');
    const badSignature = `${head}.${body}.${'A'.repeat(342)}`;
    for (const token of [wrongAudience, wrongIssuer, expired, badSignature, 'not-a-jwt']) {
      expect((await post(token)).body).toEqual({
        code: 400,
        msg: 'The Google sign-in token is invalid or has expired',
        data: null,
      });
    }
    expect((await post(expired, 'zh-cn')).body.msg).toBe('Google 登录凭证无效或已过期');
  });

  it('links by verified email only', async () => {
    const existing = await registerUser(server);
    const unverified = await post(await idToken(googleUser({ email: existing.email, email_verified: false })));
    expect(unverified.body).toEqual({
      code: 400,
      msg: 'Your Google account has no verified email address',
      data: null,
    });
    const verified = await post(await idToken(googleUser({ email: existing.email })));
    expect(verified.body.data.user.uid).toBe(existing.uid);
  });
});

describe('without GOOGLE_CLIENT_ID', () => {
  const plain = useTestServer({ GOOGLE_CLIENT_ID: undefined });

  it("answers 'clientId is required' and publishes an empty client_id", async () => {
    const response = await plain.request('/v1/user/login/platform', {
      method: 'POST',
      body: { platform: 3 },
      headers: { lang: 'en' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 400, msg: 'clientId is required', data: null });
    expect((await plain.request('/v1/siteManage')).body.data.client_id).toBe('');
  });

  it('publishes the client id when it is set', async () => {
    expect((await server.request('/v1/siteManage')).body.data.client_id).toBe(CLIENT_ID);
  });
});
