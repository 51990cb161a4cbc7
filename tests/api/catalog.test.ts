import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { products } from '../../server/db/schema';
import { bumpContentVersion } from '../../server/shared/content-version';
import { useTestApp } from '../support/test-server';

const server = useTestApp();

const en = { headers: { lang: 'en' } };
const zh = { headers: { lang: 'zh-cn' } };

describe('GET /v1/goodGroup/list/1 (home sections)', () => {
  it('answers the collections with product cards in the request language', async () => {
    const { body } = await server.request('/v1/goodGroup/list/1', en);
    expect(body.code).toBe(200);
    expect(body.data.length).toBeGreaterThanOrEqual(2);
    const card = body.data[0].products[0];
    expect(card).toMatchObject({
      id: expect.any(Number),
      name: expect.stringMatching(/[a-z]/i),
      price: expect.stringMatching(/^\d+\.\d{2}$/),
      price_minor: expect.any(Number),
      currency: 'CNY',
      sold: expect.any(Number),
    });
    expect(card.image.url).toMatch(/^\/images\//);
    const chinese = await server.request('/v1/goodGroup/list/1', zh);
    expect(chinese.body.data[0].products[0].name).toMatch(/[\u4e00-\u9fff]/);
  });

  it('shows colour swatches on cards of products that have colours', async () => {
    const { body } = await server.request('/v1/goodGroup/list/1', en);
    const withSwatches = body.data
      .flatMap((section: any) => section.products)
      .find((card: any) => card.swatches.length > 0);
    expect(withSwatches.swatches[0]).toMatchObject({
      name: expect.any(String),
      color: expect.stringMatching(/^#|rgb|hsl/),
    });
  });
});

describe('GET /v1/goodGroup/list/2 and /v1/goodGroup/{id}', () => {
  it('answers the category tree with leaf flags', async () => {
    const { body } = await server.request('/v1/goodGroup/list/2', en);
    expect(body.data.length).toBeGreaterThanOrEqual(6);
    for (const node of body.data) {
      expect(node.parent_id).toBeNull();
      expect(node.leaf).toBe(node.children.length === 0);
    }
  });

  it('answers one group with its breadcrumb', async () => {
    const tree = (await server.request('/v1/goodGroup/list/2', en)).body.data;
    const { body } = await server.request(`/v1/goodGroup/${tree[0].id}`, en);
    expect(body.data).toMatchObject({ id: tree[0].id, kind: 'category', name: tree[0].name });
    expect(body.data.breadcrumb.at(-1)).toEqual({ id: tree[0].id, name: tree[0].name });
  });

  it.each([
    ['/v1/goodGroup/999999', 404],
    ['/v1/goodGroup/abc', 400],
    ['/v1/goodGroup/0', 400],
    ['/v1/goodGroup/-1', 400],
    ['/v1/goodGroup/99999999999999999999', 400],
  ])('%s answers %i with an envelope', async (path, status) => {
    const response = await server.request(path, en);
    expect(response.status).toBe(status);
    expect(response.body.code).toBe(status);
    expect(response.body.data).toBeNull();
  });
});

describe('GET /v1/good/list', () => {
  it('pages with records and total (default page size 10)', async () => {
    const first = (await server.request('/v1/good/list', en)).body.data;
    expect(first.records).toHaveLength(10);
    expect(first.total).toBeGreaterThanOrEqual(40);
    expect(first.has_more).toBe(true);
    const second = (await server.request('/v1/good/list?page=2&page_size=10', en)).body.data;
    const ids = new Set([...first.records, ...second.records].map((record: any) => record.id));
    expect(ids.size).toBe(20);
    const last = (await server.request(`/v1/good/list?page=${Math.ceil(first.total / 10)}`, en)).body.data;
    expect(last.has_more).toBe(false);
    const beyond = (await server.request('/v1/good/list?page=999', en)).body.data;
    expect(beyond).toMatchObject({ records: [], total: first.total, has_more: false });
  });

  it('filters by group, including child categories', async () => {
    const tree = (await server.request('/v1/goodGroup/list/2', en)).body.data;
    const { body } = await server.request(`/v1/good/list?group_id=${tree[0].id}&page_size=50`, en);
    expect(body.data.total).toBeGreaterThan(0);
    expect(body.data.total).toBeLessThan(40);
  });

  it('sorts by price both ways, by best selling and by newest', async () => {
    const prices = async (sort: string) =>
      (await server.request(`/v1/good/list?sort=${sort}&page_size=50`, en)).body.data.records.map(
        (r: any) => r.price_minor,
      );
    const ascending = await prices('price_asc');
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    const descending = await prices('price_desc');
    expect(descending).toEqual([...descending].sort((a, b) => b - a));
    const sold = (await server.request('/v1/good/list?sort=best_selling&page_size=50', en)).body.data.records.map(
      (r: any) => r.sold,
    );
    expect(sold).toEqual([...sold].sort((a: number, b: number) => b - a));
  });

  it('filters by price range in minor units', async () => {
    const { body } = await server.request('/v1/good/list?price_min=5000&price_max=15000&page_size=50', en);
    expect(body.data.total).toBeGreaterThan(0);
    for (const record of body.data.records) {
      expect(record.price_minor).toBeGreaterThanOrEqual(5000);
      expect(record.price_minor).toBeLessThanOrEqual(15000);
    }
  });

  it('finds products by English and by Chinese keywords', async () => {
    const sample = (await server.request('/v1/good/list?page_size=1', en)).body.data.records[0];
    const sampleZh = (await server.request(`/v1/good/${sample.id}`, zh)).body.data;
    const englishWord = sample.name.split(/\s+/).find((word: string) => word.length > 3) ?? sample.name;
    const byEnglish = (
      await server.request(`/v1/good/list?keyword=${encodeURIComponent(englishWord.toUpperCase())}&page_size=50`, en)
    ).body.data;
    expect(byEnglish.records.map((r: any) => r.id)).toContain(sample.id);
    const chineseFragment = [...sampleZh.name].slice(0, 2).join('');
    const byChinese = (
      await server.request(`/v1/good/list?keyword=${encodeURIComponent(chineseFragment)}&page_size=50`, zh)
    ).body.data;
    expect(byChinese.records.map((r: any) => r.id)).toContain(sample.id);
  });

  it('treats wildcards and markup in keywords literally', async () => {
    for (const keyword of ['%', '_', '<script>alert(1)</script>', "' or 1=1 --", 'x'.repeat(100)]) {
      const response = await server.request(`/v1/good/list?keyword=${encodeURIComponent(keyword)}`, en);
      expect(response.status).toBe(200);
      expect(response.body.data.total).toBe(0);
    }
  });

  it.each([
    ['page=0', 'Page must be at least 1'],
    ['page=abc', 'Page must be a number'],
    ['page_size=10000', 'Page size must be at most 50'],
    ['sort=cheapest', 'Sort order must be one of newest, best_selling, price_asc, price_desc'],
    ['price_min=500&price_max=100', 'The lowest price cannot be above the highest price'],
    [`keyword=${'x'.repeat(2048)}`, 'Search keyword cannot be longer than 100 characters'],
    ['group_id=-3', 'Product group must be at least 1'],
  ])('refuses %s with a message naming the field', async (query, message) => {
    const response = await server.request(`/v1/good/list?${query}`, en);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 400, msg: message, data: null });
  });
});

describe('GET /v1/good/{id}', () => {
  it('answers properties, one SKU per combination, sold count and service notes', async () => {
    const id = (await server.request('/v1/good/list?page_size=1&sort=best_selling', en)).body.data.records[0].id;
    const { body } = await server.request(`/v1/good/${id}`, en);
    const product = body.data;
    expect(product.images.length).toBeGreaterThanOrEqual(1);
    expect(product.property.length).toBeGreaterThanOrEqual(1);
    const combinations = product.property.reduce((total: number, property: any) => total * property.values.length, 1);
    expect(product.good_sku).toHaveLength(combinations);
    for (const sku of product.good_sku) {
      expect(sku.value_ids).toHaveLength(product.property.length);
      expect(sku).toMatchObject({
        currency: 'CNY',
        price: expect.stringMatching(/^\d+\.\d{2}$/),
        stock: expect.any(Number),
      });
    }
    expect(product.service_notes.every((note: number) => [1, 2, 3, 4].includes(note))).toBe(true);
    expect(product.sold).toBeGreaterThanOrEqual(0);
  });

  it('hides unlisted products', async () => {
    const id = (await server.request('/v1/good/list?page_size=1', en)).body.data.records[0].id;
    await server.ctx.db.update(products).set({ listed: false, status: 'draft' }).where(eq(products.id, id));
    await bumpContentVersion(server.ctx);
    try {
      const response = await server.request(`/v1/good/${id}`, en);
      expect(response.status).toBe(404);
      expect(response.body.msg).toBe('This product does not exist or is no longer sold');
      const ids = (await server.request('/v1/good/GetldList')).body.data.map((row: any) => row.id);
      expect(ids).not.toContain(id);
    } finally {
      await server.ctx.db.update(products).set({ listed: true, status: 'published' }).where(eq(products.id, id));
      await bumpContentVersion(server.ctx);
    }
  });

  it.each(['abc', '0', '1.5', '999999'])('/v1/good/%s answers 400 or 404, never 500', async (id) => {
    const response = await server.request(`/v1/good/${id}`, en);
    expect([400, 404]).toContain(response.status);
    expect(response.body.data).toBeNull();
  });
});

describe('GET /v1/good/GetldList', () => {
  it('answers the id of every listed product', async () => {
    const { body } = await server.request('/v1/good/GetldList');
    const total = (await server.request('/v1/good/list')).body.data.total;
    expect(body.data).toHaveLength(total);
    expect(body.data[0]).toMatchObject({ id: expect.any(Number), updated_at: expect.any(String) });
  });
});

describe('caching of catalogue answers', () => {
  it('serves repeats from the cache with an ETag and drops them when the content version moves', async () => {
    const id = (await server.request('/v1/good/list?page_size=1&sort=price_desc', en)).body.data.records[0].id;
    const first = await server.request(`/v1/good/${id}`, en);
    const second = await server.request(`/v1/good/${id}`, en);
    expect(second.headers.get('x-cache')).toBe('hit');
    expect(second.body).toEqual(first.body);
    const etag = second.headers.get('etag')!;
    const revalidated = await server.request(`/v1/good/${id}`, { headers: { lang: 'en', 'if-none-match': etag } });
    expect(revalidated.status).toBe(304);

    const [row] = await server.ctx.db.select().from(products).where(eq(products.id, id));
    if (!row) throw new Error(`no product row with id ${id}`);
    await server.ctx.db
      .update(products)
      .set({ name: { ...row.name, en: 'Renamed for the cache test' } })
      .where(eq(products.id, id));
    await bumpContentVersion(server.ctx);
    try {
      const fresh = await server.request(`/v1/good/${id}`, en);
      expect(fresh.body.data.name).toBe('Renamed for the cache test');
      expect(fresh.headers.get('etag')).not.toBe(etag);
    } finally {
      await server.ctx.db.update(products).set({ name: row.name }).where(eq(products.id, id));
      await bumpContentVersion(server.ctx);
    }
  });

  it('keeps languages apart', async () => {
    const english = await server.request('/v1/goodGroup/list/2', en);
    const chinese = await server.request('/v1/goodGroup/list/2', zh);
    expect(chinese.body.data[0].name).not.toBe(english.body.data[0].name);
  });
});
