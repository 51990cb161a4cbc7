import { describe, expect, it } from 'vitest';
import { createSession, revokeSession } from '../../server/domains/customers/sessions.service';
import { users, sessions } from '../../server/db/schema';
import { eq } from 'drizzle-orm';
import { useTestApp } from '../support/test-server';

const server = useTestApp();

async function makeUser(email: string) {
  const [user] = await server.ctx.db
    .insert(users)
    .values({ email, username: email.split('@')[0]! })
    .returning();
  if (!user) throw new Error(`inserting the user ${email} returned no row`);
  return user;
}

describe('envelope and language', () => {
  it('answers {code: 200, msg, data} in the language of the lang header', async () => {
    const en = await server.request('/v1/sys/conf', { headers: { lang: 'en' } });
    expect(en.status).toBe(200);
    expect(en.body).toMatchObject({ code: 200, msg: expect.any(String) });
    expect(en.body.data.title).toMatch(/Lumen & Loom/);
    const zh = await server.request('/v1/sys/conf', { headers: { lang: 'zh-cn' } });
    expect(zh.body.data.title).toMatch(/光织良品/);
  });

  it('falls back to Accept-Language, then Chinese', async () => {
    const viaAccept = await server.request('/v1/nope', { headers: { 'accept-language': 'en-GB,en;q=0.9' } });
    expect(viaAccept.body.msg).toBe('Page Not Found: /v1/nope');
    const fallback = await server.request('/v1/nope');
    expect(fallback.body.msg).toBe('页面不存在：/v1/nope');
  });

  it('answers unknown /v1 and /v2 paths with a 404 envelope, for any method', async () => {
    for (const [method, path] of [
      ['GET', '/v1/does/not/exist?x=1'],
      ['DELETE', '/v1/good/xyz'],
      ['GET', '/v2/unknown'],
    ] as const) {
      const response = await server.request(path, { method, headers: { lang: 'en' } });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ code: 404, msg: `Page Not Found: ${path.split('?')[0]}`, data: null });
    }
  });

  it('gives every response a request id and keeps a safe incoming one', async () => {
    const fresh = await server.request('/v1/config');
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await server.request('/v1/config', { headers: { 'x-request-id': 'edge-123.abc' } });
    expect(kept.headers.get('x-request-id')).toBe('edge-123.abc');
    const replaced = await server.request('/v1/config', { headers: { 'x-request-id': '<script>alert(1)</script>' } });
    expect(replaced.headers.get('x-request-id')).not.toContain('<');
  });

  it('reads the client header (default 4) into the site configuration', async () => {
    expect((await server.request('/v1/config')).body.data.client).toBe(4);
    expect((await server.request('/v1/config', { headers: { client: '2' } })).body.data.client).toBe(2);
    expect((await server.request('/v1/config', { headers: { client: 'banana' } })).body.data.client).toBe(4);
  });
});

describe('site settings endpoints', () => {
  it('GET /v1/siteManage answers the site settings fields', async () => {
    const { body } = await server.request('/v1/siteManage', { headers: { lang: 'en' } });
    expect(Object.keys(body.data).sort()).toEqual(
      [
        'analysis_code',
        'client_id',
        'country_list',
        'currency',
        'seo_description',
        'seo_image',
        'seo_keyword',
        'seo_title',
      ].sort(),
    );
    expect(body.data.currency).toBe('CNY');
    expect(body.data.country_list).toContain('US');
    expect(body.data.seo_title).toMatch(/Lumen/);
  });

  it('GET /v1/sys/conf answers title, keyword, desc', async () => {
    const { body } = await server.request('/v1/sys/conf', { headers: { lang: 'en' } });
    expect(Object.keys(body.data).sort()).toEqual(['desc', 'keyword', 'title']);
    expect(body.data.keyword.length).toBeGreaterThan(5);
  });

  it('GET /v1/config answers the site configuration with logo and client', async () => {
    const { body } = await server.request('/v1/config', { headers: { lang: 'zh-cn' } });
    expect(body.data).toMatchObject({
      logo: expect.stringMatching(/^\//),
      title: expect.stringContaining('光织良品'),
      client: 4,
      currency: 'CNY',
      country_list: expect.arrayContaining(['GB']),
      appName: '光织良品',
      baseApiUrl: '',
      imageUploadUrl: '',
    });
  });

  it('reflects a settings change made through the service', async () => {
    await server.ctx.db.transaction(async () => {});
    const { updateSiteSettings } = await import('../../server/domains/site-settings/site-settings.service');
    await updateSiteSettings(server.ctx, { currency: 'USD' });
    expect((await server.request('/v1/siteManage')).body.data.currency).toBe('USD');
    await updateSiteSettings(server.ctx, { currency: 'CNY' });
  });
});

describe('bad input', () => {
  it('answers malformed JSON with a localized 400 envelope', async () => {
    const response = await server.request('/v1/sys/conf', {
      method: 'POST',
      rawBody: '{"email": ',
      headers: { 'content-type': 'application/json', lang: 'en' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 400, msg: 'The request body is not valid JSON', data: null });
  });

  it('answers an oversized body with 413 and names the limit', async () => {
    const response = await server.request('/v1/sys/conf', {
      method: 'POST',
      rawBody: JSON.stringify({ blob: 'x'.repeat(2 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json', lang: 'en' },
    });
    expect(response.status).toBe(413);
    expect(response.body.code).toBe(413);
    expect(response.body.msg).toBe('The request body is too large (at most 1 MB)');
  });

  it('answers an unsupported content type with 415', async () => {
    const response = await server.request('/v1/sys/conf', {
      method: 'POST',
      rawBody: '<xml/>',
      headers: { 'content-type': 'application/xml', lang: 'en' },
    });
    expect(response.status).toBe(415);
    expect(response.body.msg).toContain('application/xml');
  });
});

describe('sessions on login-only endpoints (SPEC section 8)', () => {
  it('answers 301 without a session', async () => {
    const response = await server.request('/v1/user/info', { headers: { lang: 'en' } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ code: 301, msg: 'Please log in first', data: null });
  });

  it('accepts token + sign headers and the access_token cookie', async () => {
    const user = await makeUser('header-user@example.com');
    const session = await createSession(server.ctx, user.id);
    const viaHeaders = await server.request('/v1/user/info', { headers: { token: session.token, sign: session.sign } });
    expect(viaHeaders.body).toMatchObject({ code: 200, data: { uid: user.id, email: 'header-user@example.com' } });
    const viaCookie = await server.request('/v1/user/info', { cookies: { access_token: session.token } });
    expect(viaCookie.body.data.uid).toBe(user.id);
  });

  it('refuses a header token without the matching sign (302)', async () => {
    const user = await makeUser('nosign@example.com');
    const session = await createSession(server.ctx, user.id);
    expect((await server.request('/v1/user/info', { headers: { token: session.token } })).body.code).toBe(302);
    const wrongSign = await server.request('/v1/user/info', {
      headers: { token: session.token, sign: 'x'.repeat(43) },
    });
    expect(wrongSign.body.code).toBe(302);
  });

  it('answers 302 for an expired, revoked or unknown session', async () => {
    const user = await makeUser('expired@example.com');
    const expired = await createSession(server.ctx, user.id);
    await server.ctx.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, expired.sessionId));
    const revoked = await createSession(server.ctx, user.id);
    await revokeSession(server.ctx, revoked.sessionId);
    for (const session of [expired, revoked]) {
      const response = await server.request('/v1/user/info', {
        headers: { token: session.token, sign: session.sign, lang: 'en' },
      });
      expect(response.body).toEqual({ code: 302, msg: 'Your session has expired. Please log in again', data: null });
    }
    expect((await server.request('/v1/user/info', { cookies: { access_token: 'made-up' } })).body.code).toBe(302);
  });
});

describe('CSRF on cookie-authenticated writes', () => {
  it('refuses a cookie-authenticated write without the echoed token and allows it with one', async () => {
    // An API answer to a cookie-authenticated request hands out the token (pages do too: storefront-shell.test.ts).
    const first = await server.request('/v1/sys/conf', { cookies: { access_token: 'some-token' } });
    const csrf = first.headers
      .getSetCookie()
      .map((cookie) => /^csrf_token=([0-9a-f]{32});/.exec(cookie)?.[1])
      .find(Boolean);
    expect(csrf).toMatch(/^[0-9a-f]{32}$/);
    const blocked = await server.request('/v1/anything', {
      method: 'POST',
      body: {},
      cookies: { access_token: 'some-token', csrf_token: csrf! },
      headers: { lang: 'en' },
    });
    expect(blocked.status).toBe(403);
    expect(blocked.body.msg).toMatch(/security token/);
    const allowed = await server.request('/v1/anything', {
      method: 'POST',
      body: {},
      cookies: { access_token: 'some-token', csrf_token: csrf! },
      headers: { 'x-csrf-token': csrf! },
    });
    expect(allowed.status).toBe(404);
  });

  it('does not ask header-token clients for a CSRF token', async () => {
    const response = await server.request('/v1/anything', {
      method: 'POST',
      body: {},
      headers: { token: 't', sign: 's' },
    });
    expect(response.status).toBe(404);
  });
});

describe('health and documentation', () => {
  it('answers liveness and readiness', async () => {
    expect((await server.request('/healthz')).body).toEqual({ status: 'ok' });
    const ready = await server.request('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks.database).toBe('ok');
  });

  it('publishes an OpenAPI document generated from the route schemas', async () => {
    const { body, status } = await server.request('/v1/openapi.json');
    expect(status).toBe(200);
    expect(body.openapi).toMatch(/^3\./);
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining(['/v1/siteManage', '/v1/sys/conf', '/v1/config', '/v1/user/info']),
    );
    expect(body.paths['/v1/siteManage'].get.responses['200']).toBeDefined();
  });
});
