import { beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TEST_ENV, registerUser, type RegisteredUser } from '../support/accounts';
import { useTestServer } from '../support/test-server';

/**
 * The storefront side of accounts over HTTP: per-visitor bits never enter the anonymous
 * response cache, and the route guard answers login-only pages without leaking or caching.
 */
const server = useTestServer(ACCOUNT_TEST_ENV);
let member: RegisteredUser;

beforeAll(async () => {
  member = await registerUser(server);
});

const asMember = () => ({ cookies: { access_token: member.token } });

describe('response cache and the logged-in header', () => {
  // Issue 13: a catalogue page is one document for everyone; the header's name comes from /v1/visitor.
  it('serves a member the shared catalogue page, which names nobody', async () => {
    const path = '/en/faq?page=201';
    const first = await server.request(path);
    expect(first.headers.get('x-cache')).toBe('miss');

    const logged = await server.request(path, asMember());
    expect(logged.status).toBe(200);
    expect(logged.headers.get('x-cache')).toBe('hit');
    expect(logged.headers.get('cache-control')).not.toBe('private, no-store');
    expect(logged.text).toBe(first.text);
    expect(logged.text).not.toContain(member.username);
    expect(logged.text).not.toContain(member.email);
  });

  it("renders a member's catalogue page without reading the session, and shares that render", async () => {
    const path = '/en/our-story?page=202';
    const logged = await server.request(path, asMember());
    expect(logged.headers.get('x-cache')).toBe('miss');
    expect(logged.text).not.toContain(member.username);
    const anonymous = await server.request(path);
    expect(anonymous.headers.get('x-cache')).toBe('hit');
    expect(anonymous.text).toBe(logged.text);
  });

  it('renders login-only pages fresh for the member, with their name, never stored', async () => {
    const logged = await server.request('/en/my/order', asMember());
    expect(logged.status).toBe(200);
    expect(logged.headers.get('x-cache')).toBeNull();
    expect(logged.headers.get('cache-control')).toBe('private, no-store');
    expect(logged.text).toContain(member.username);
  });

  it('answers a stale session cookie on a catalogue page with the shared page', async () => {
    const page = await server.request('/en/faq', { cookies: { access_token: 'no-such-session' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('x-cache')).not.toBeNull();
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
    for (const path of [
      '/en/my/order',
      '/en/my/order/12',
      '/en/my/address',
      '/en/order/confirm_order',
      '/en/order/pay',
    ]) {
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
