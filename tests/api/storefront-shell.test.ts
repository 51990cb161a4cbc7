import { describe, expect, it } from 'vitest';
import { updateSiteSettings } from '../../server/domains/site-settings/site-settings.service';
import { useTestServer } from '../support/test-server';

const server = useTestServer();

describe('locale routing', () => {
  it('sends / to Chinese without a locale cookie', async () => {
    const response = await server.request('/');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/zh-cn/');
  });

  it('sends / to the locale in the lang cookie', async () => {
    const response = await server.request('/', { cookies: { lang: 'en' } });
    expect(response.headers.get('location')).toBe('/en/');
  });

  it('ignores a lang cookie that is not one of ours', async () => {
    const response = await server.request('/', { cookies: { lang: 'fr' } });
    expect(response.headers.get('location')).toBe('/zh-cn/');
  });

  it('prefixes un-prefixed paths with the preferred locale', async () => {
    const response = await server.request('/faq?x=1', { cookies: { lang: 'en' } });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/en/faq?x=1');
  });

  it('remembers the language of a visited page for 365 days', async () => {
    const response = await server.request('/en/', { cookies: { lang: 'zh-cn' } });
    const cookie = response.headers.getSetCookie().find((value) => value.startsWith('lang='));
    expect(cookie).toMatch(/^lang=en;/);
    expect(cookie).toMatch(/Max-Age=31536000/i);
  });

  it('renders each locale in its language', async () => {
    const en = await server.request('/en/');
    expect(en.status).toBe(200);
    expect(en.text).toContain('<html lang="en"');
    const zh = await server.request('/zh-cn/');
    expect(zh.text).toContain('<html lang="zh-CN"');
  });
});

describe('stylesheet', () => {
  it('links one hashed stylesheet, cached for a year and sent compressed, instead of inlining it', async () => {
    const page = await server.request('/en/product/1');
    expect(page.text).not.toContain('<style');
    const links = [...page.text.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((match) => match[1]);
    expect(links).toHaveLength(1);
    expect(links[0]).toMatch(/^\/assets\/index-[\w-]{8}\.css$/);
    for (const encoding of ['br', 'gzip']) {
      const response = await fetch(server.url + links[0], { headers: { 'accept-encoding': encoding } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-encoding')).toBe(encoding);
      expect(response.headers.get('cache-control')).toMatch(/max-age=31536000.*immutable/);
      expect(response.headers.get('content-type')).toMatch(/^text\/css/);
      expect(await response.text()).toContain('.product-page');
    }
  });
});

describe('message packs', () => {
  it('names and preloads the packs a page needs, in its language only', async () => {
    const preloadedPacks = (html: string) =>
      [...html.matchAll(/<link rel="modulepreload" href="\/assets\/messages-([a-z-]+?)-[\w-]{8}\.js"/g)].map(
        (match) => match[1],
      );
    const home = await server.request('/zh-cn/');
    expect(home.text).toContain('data-message-packs="storefront browse"');
    expect(preloadedPacks(home.text)).toEqual(['zh-cn-storefront', 'zh-cn-browse']);
    const product = await server.request('/en/product/1');
    expect(product.text).toContain('data-message-packs="storefront"');
    expect(preloadedPacks(product.text)).toEqual(['en-storefront']);
  });
});

describe('page head from the site settings', () => {
  it('carries title, keywords, description and favicon', async () => {
    const { text } = await server.request('/en/');
    expect(text).toMatch(/<title>[^<]*Lumen &amp; Loom[^<]*<\/title>/);
    expect(text).toMatch(/<meta name="keywords" content="[^"]*worldwide shipping[^"]*"/);
    expect(text).toMatch(/<meta name="description" content="Carefully made[^"]*"/);
    expect(text).toMatch(/<link rel="icon" href="[^"]+"/);
  });

  it('gives content pages their own title', async () => {
    const { text, status } = await server.request('/en/faq');
    expect(status).toBe(200);
    expect(text).toMatch(/<title>[^<]*\| Lumen &amp; Loom/);
  });

  it('injects the analytics code so it runs, without breaking out of its script', async () => {
    const code = '<script>window.__analytics = "</script><b>x</b>";</script>';
    await updateSiteSettings(server.ctx, { analysis_code: code });
    try {
      const { text } = await server.request('/en/');
      expect(text).toContain("document.createElement('template')");
      expect(text).toContain('\\u003c/script>');
      expect(text).not.toContain('"</script><b>x</b>');
    } finally {
      await updateSiteSettings(server.ctx, { analysis_code: '' });
    }
  });

  it("keeps the owner's analytics code out of the console, where it would run with staff sessions", async () => {
    await updateSiteSettings(server.ctx, { analysis_code: 'window.__ownersAnalytics = 1;' });
    try {
      expect((await server.request('/en/')).text).toContain('__ownersAnalytics');
      for (const path of ['/admin', '/admin/sign-in', '/admin/orders']) {
        expect((await server.request(path)).text, path).not.toContain('__ownersAnalytics');
      }
    } finally {
      await updateSiteSettings(server.ctx, { analysis_code: '' });
    }
  });

  it('renders the colour mode from the cookie on the html element, so there is no flash', async () => {
    expect((await server.request('/en/', { cookies: { color_mode: 'dark' } })).text).toContain(
      'data-color-mode="dark"',
    );
    expect((await server.request('/en/', { cookies: { color_mode: 'light' } })).text).toContain(
      'data-color-mode="light"',
    );
    expect((await server.request('/en/')).text).toContain('data-color-mode="system"');
    expect((await server.request('/en/', { cookies: { color_mode: '"><script>' } })).text).toContain(
      'data-color-mode="system"',
    );
  });
});

describe('error pages', () => {
  it('answers unknown pages with 404 and Page Not Found in the page language', async () => {
    const en = await server.request('/en/no/such/page');
    expect(en.status).toBe(404);
    expect(en.text).toContain('Page Not Found');
    const zh = await server.request('/zh-cn/no-such-page');
    expect(zh.status).toBe(404);
    expect(zh.text).toContain('页面不存在');
  });

  it('serves /404 as the not-found page', async () => {
    const response = await server.request('/zh-cn/404');
    expect(response.status).toBe(404);
  });

  it('never reflects a path unescaped', async () => {
    const response = await server.request('/en/%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expect(response.status).toBe(404);
    expect(response.text).not.toContain('<script>alert(1)</script>');
  });
});

describe('content pages', () => {
  it.each(['videos', 'our-story', 'faq', 'contact-us'])('/%s exists in both languages', async (slug) => {
    for (const locale of ['en', 'zh-cn']) {
      const response = await server.request(`/${locale}/${slug}`);
      expect(response.status).toBe(200);
      expect(response.text).toContain('<h1');
    }
  });
});

describe('CSRF on page forms', () => {
  it('hands out the readable CSRF cookie with a page', async () => {
    const page = await server.request('/en/');
    const csrf = page.headers.getSetCookie().find((cookie) => cookie.startsWith('csrf_token='));
    expect(csrf).toMatch(/^csrf_token=[0-9a-f]{32}; /);
    expect(csrf).not.toMatch(/HttpOnly/i);
  });

  it('refuses a cross-site form post to a page', async () => {
    const response = await server.request('/en/', {
      method: 'POST',
      rawBody: 'a=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
    });
    expect(response.status).toBe(403);
  });
});
