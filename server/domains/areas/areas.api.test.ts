import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../tests/support/test-server';

/**
 * `GET /v1/area/all` through the shop's own app (built in-process, answered through `inject`)
 * on a clone of the seeded database.
 */
let shop: TestApp;

beforeAll(async () => {
  shop = await startTestApp();
});
afterAll(() => shop?.close());

function get(path: string, headers: Record<string, string> = {}) {
  return shop.request(path, { headers });
}

describe('GET /v1/area/all', () => {
  it('answers the tree in the envelope, names in the request language', async () => {
    const en = await get('/v1/area/all', { lang: 'en' });
    expect(en.status).toBe(200);
    const body = en.body;
    expect(body.code).toBe(200);
    expect(body.data.map((country: { id: string }) => country.id)).toEqual([
      'US',
      'GB',
      'CA',
      'AU',
      'DE',
      'FR',
      'JP',
      'SG',
      'MY',
      'CN',
    ]);
    expect(body.data[0]).toMatchObject({
      id: 'US',
      code: 'US',
      name: 'United States',
      name_en: 'United States',
      name_zh: '美国',
      leaf: false,
    });

    const zh = (await get('/v1/area/all', { lang: 'zh-cn' })).body;
    const guangdong = zh.data
      .find((c: { id: string }) => c.id === 'CN')
      .children.find((p: { id: string }) => p.id === 'CN-GD');
    expect(guangdong).toMatchObject({ name: '广东省', name_en: 'Guangdong', leaf: false });
    expect(guangdong.children[0]).toEqual({
      id: 'CN-GD-440100',
      code: '440100',
      name: '广州市',
      name_en: 'Guangzhou',
      name_zh: '广州市',
      leaf: true,
    });
  });

  it('sends ETag, Cache-Control and Vary, and answers 304 to a matching If-None-Match', async () => {
    const first = await get('/v1/area/all', { lang: 'en' });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toMatch(/max-age=\d+/);
    expect(first.headers.get('vary')).toMatch(/lang/);
    const again = await get('/v1/area/all', { lang: 'en', 'if-none-match': etag! });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    // The other language is another representation, with its own tag.
    const chinese = await get('/v1/area/all', { lang: 'zh-cn', 'if-none-match': etag! });
    expect(chinese.status).toBe(200);
    expect(chinese.headers.get('etag')).not.toBe(etag);
  });

  it('keeps the whole answer small (measured: about 112 KB, 22 KB gzipped)', async () => {
    const { text } = await get('/v1/area/all', { lang: 'en' });
    expect(Buffer.byteLength(text)).toBeLessThan(160_000);
    expect(gzipSync(text).length).toBeLessThan(35_000);
  });

  it('answers one level below a parent_id', async () => {
    const response = await get('/v1/area/all?parent_id=US-NY', { lang: 'en' });
    expect(response.status).toBe(200);
    const { data } = response.body;
    expect(data.length).toBeGreaterThan(100);
    expect(data.find((city: { name: string }) => city.name === 'Brooklyn')).toMatchObject({ leaf: true });
    expect(response.headers.get('etag')).toMatch(/^"/);
  });

  it('rejects a malformed parent_id with a 400 envelope and an unknown one with 404', async () => {
    const bad = await get('/v1/area/all?parent_id=%20US%20', { lang: 'en' });
    expect(bad.status).toBe(400);
    const badBody = bad.body;
    expect(badBody).toMatchObject({ code: 400, data: null });
    expect(badBody.msg).toBe('Parent is not in a valid format');

    const unknown = await get('/v1/area/all?parent_id=IT', { lang: 'zh-cn' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 404, msg: '未找到', data: null });
  });

  it('documents itself in the OpenAPI document (recursive schema included)', () => {
    const document = shop.app.swagger() as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toContain('/v1/area/all');
  });
});
