import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { useTestServer } from '../support/test-server';

const server = useTestServer();

describe('/sitemap.xml and /robots.txt', () => {
  it('lists every listed product, group and content page in both locales with alternates', async () => {
    const response = await server.request('/sitemap.xml');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/xml');
    const ids = (await server.request('/v1/good/GetldList')).body.data.map((row: { id: number }) => row.id);
    for (const id of ids) {
      expect(response.text).toContain(`/en/product/${id}</loc>`);
      expect(response.text).toContain(`/zh-cn/product/${id}</loc>`);
    }
    const groups = (await server.request('/v1/goodGroup/list/2')).body.data;
    expect(response.text).toContain(`/en/product/cate/${groups[0].id}</loc>`);
    expect(response.text).toContain('/zh-cn/faq</loc>');
    expect(response.text).toMatch(/hreflang="zh-Hans" href="[^"]+\/zh-cn\/faq"/);
  });

  it('points robots at the sitemap and keeps private paths out', async () => {
    const { text, status } = await server.request('/robots.txt');
    expect(status).toBe(200);
    expect(text).toMatch(/^Sitemap: http:\/\/127\.0\.0\.1:\d+\/sitemap\.xml$/m);
    expect(text).toContain('Disallow: /v1/');
    expect(text).toContain('Disallow: /en/my/');
  });
});

describe('/images', () => {
  async function firstImageUrl() {
    return (await server.request('/v1/good/list?page_size=1')).body.data.records[0].image.url as string;
  }

  it('serves the original with an ETag, immutable for a year (its address hashes it), and 304 on revalidation', async () => {
    const url = await firstImageUrl();
    const response = await fetch(server.url + url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(url).toMatch(/^\/images\/h\/[0-9a-f]{32}\.webp$/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const again = await fetch(server.url + url, { headers: { 'if-none-match': response.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('serves a resized webp, snapping the width to the allowed set', async () => {
    const url = await firstImageUrl();
    const response = await fetch(`${server.url}${url}?w=300`);
    expect(response.status).toBe(200);
    const metadata = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect(metadata.format).toBe('webp');
    expect(metadata.width).toBe(320);
  });

  // Encoded slashes survive URL normalisation, so these reach the route as '../../etc/passwd'.
  it.each([
    '/images/..%2f..%2f..%2fetc%2fpasswd',
    '/images/demo%2f..%2f..%2f..%2fetc%2fpasswd',
    '/images/demo/nope.webp',
    '/images/demo/',
  ])('%s answers 404 and never a file outside the images folder', async (path) => {
    const response = await fetch(server.url + path);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('root:');
  });

  it('refuses a width outside the allowed range with 400', async () => {
    const response = await fetch(`${server.url}${await firstImageUrl()}?w=100000`);
    expect(response.status).toBe(400);
  });
});
