import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/test-server';

/**
 * The console's pages under /admin (app/admin): the server sends a light shell that the
 * browser fills in; it is never stored in the response cache, carries none of the
 * storefront's frame, and the storefront's pages load none of the console's code.
 * (Needs `npm run build`.)
 */
const server = useTestServer();

describe('the console shell', () => {
  it('is a skeleton without the storefront frame, asking for the console texts, never cached', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const page = await server.request('/admin/orders?status=10');
      expect(page.status).toBe(200);
      expect(page.headers.get('x-cache')).toBeNull();
      expect(page.headers.get('cache-control')).toBe('private, no-store');
      expect(page.text).toContain('class="console-app console-loading"');
      expect(page.text).not.toContain('site-header');
      expect(page.text).toMatch(/data-message-packs="storefront admin"/);
      expect(page.text).toContain('<meta name="robots" content="noindex, nofollow"/>');
    }
  });

  it('answers the sign-in and first-start pages the same way', async () => {
    for (const path of ['/admin', '/admin/sign-in', '/admin/setup', '/admin/invitation']) {
      const page = await server.request(path);
      expect(page.status, path).toBe(200);
      expect(page.text, path).toContain('console-loading');
    }
  });

  it("keeps the console's scripts and styles off storefront pages", async () => {
    for (const path of ['/en/product/1', '/zh-cn/', '/en/my/order']) {
      const page = await server.request(path);
      const assets = [...page.text.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((match) => match[1]);
      expect(assets.length, path).toBeGreaterThan(0);
      expect(
        assets.filter((asset) => /console|admin|messages-[a-z-]+-admin/.test(asset ?? '')),
        path,
      ).toEqual([]);
    }
  });
});
