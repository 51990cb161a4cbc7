import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * The storefront side of accounts over HTTP: per-visitor bits never enter the anonymous
 * response cache, and the route guard answers login-only pages without leaking or caching.
 */
const CAPTCHA = '2468';
let server: TestServer;
let member: { token: string; username: string; email: string };

beforeAll(async () => {
  server = await startTestServer({ CAPTCHA_TEST_ANSWER: CAPTCHA, RATE_LIMITS: 'captcha.ip=1000/60,register.ip=1000/60' });
  const captcha = await server.request('/v1/captcha', { method: 'POST', body: { captcha_type: 'digit' } });
  const email = `web-${process.pid}-${Date.now().toString(36)}@example.com`;
  const username = `Zed${Date.now().toString(36)}`;
  const answer = await server.request('/v1/user/registe', {
    method: 'POST',
    body: { username, mobile: '13812345678', email, password: 'a long test password', dots: CAPTCHA, key: captcha.body.data.id },
  });
  expect(answer.body.code).toBe(200);
  member = { token: answer.body.data.access_token, username, email };
});
afterAll(async () => server?.close());

const asMember = () => ({ cookies: { access_token: member.token } });

describe('response cache and the logged-in header', () => {
  it('renders a member fresh with their name and never serves it to anonymous visitors', async () => {
    const path = '/en/faq?page=201';
    const first = await server.request(path);
    expect(first.headers.get('x-cache')).toBe('miss');
    expect((await server.request(path)).headers.get('x-cache')).toBe('hit');

    const logged = await server.request(path, asMember());
    expect(logged.status).toBe(200);
    expect(logged.headers.get('x-cache')).toBeNull();
    expect(logged.headers.get('cache-control')).toBe('private, no-store');
    expect(logged.text).toContain(member.username);

    const after = await server.request(path);
    expect(after.headers.get('x-cache')).toBe('hit');
    expect(after.text).not.toContain(member.username);
    expect(after.text).not.toContain(member.email);
  });

  it('does not store a member render for anonymous visitors to find', async () => {
    const path = '/en/our-story?page=202';
    const logged = await server.request(path, asMember());
    expect(logged.text).toContain(member.username);
    const anonymous = await server.request(path);
    expect(anonymous.headers.get('x-cache')).toBe('miss');
    expect(anonymous.text).not.toContain(member.username);
  });

  it('answers a stale session cookie with a fresh anonymous render', async () => {
    const page = await server.request('/en/faq', { cookies: { access_token: 'no-such-session' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('x-cache')).toBeNull();
    expect(page.text).not.toContain(member.username);
  });
});

describe('route guard', () => {
  it('refuses /my/account to anonymous visitors with 401, the guard title and noindex, never cached', async () => {
    for (const locale of ['en', 'zh-cn'] as const) {
      const first = await server.request(`/${locale}/my/account`);
      const second = await server.request(`/${locale}/my/account`);
      for (const page of [first, second]) {
        expect(page.status).toBe(401);
        expect(page.headers.get('x-cache')).not.toBe('hit');
        expect(page.text).toContain('noindex');
        expect(page.text).toContain(locale === 'en' ? 'Login to browse more content' : '登录以浏览更多内容');
        expect(page.text).not.toContain(member.email);
      }
    }
  });

  it('shows the account page to its member, privately', async () => {
    const page = await server.request('/en/my/account', asMember());
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('private, no-store');
    expect(page.text).toContain(member.email);
    expect(page.text).toContain('138****5678');
    expect(page.text).not.toContain('13812345678');
  });

  it('guards every path under /my and /order, and gives members the normal 404 for pages that do not exist', async () => {
    // SPEC section 2's login-only pages (those of the checkout issue must be added under the guard layout).
    for (const path of ['/en/my/order', '/en/my/order/12', '/en/my/address', '/en/order/confirm_order', '/en/order/pay']) {
      expect((await server.request(path)).status, path).toBe(401);
    }
    for (const path of ['/en/my/no-such-page', '/en/order/no-such-step']) {
      expect((await server.request(path)).status, path).toBe(401);
      expect((await server.request(path, asMember())).status, path).toBe(404);
    }
    // Outside the guard nothing changes.
    expect((await server.request('/en/no-such-page')).status).toBe(404);
  });

  it('treats an expired or unknown session cookie as anonymous', async () => {
    const page = await server.request('/en/my/account', { cookies: { access_token: 'no-such-session' } });
    expect(page.status).toBe(401);
    expect(page.text).toContain('Login to browse more content');
  });
});
