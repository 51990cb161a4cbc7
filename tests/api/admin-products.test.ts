import { and, asc, count, eq, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, productGroups, products, productSkus } from '../../server/db/schema';
import type { ProductBody as Body } from '../../server/domains/catalog/product-editor.schemas';
import { makeBuyer } from '../support/buyers';
import { rawGet as rawHttpGet } from '../support/raw-http';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { useTestServer } from '../support/test-server';

/** The console's product editor (docs/console.md, "Products"; ADR 0160). */
const server = useTestServer();

let editor: TestStaff;
let categories: number[];
let runTag = 0;

beforeAll(async () => {
  editor = await createSignedInStaff(server, { role: 'catalogue' });
  const rows = await server.ctx.db
    .select({ id: productGroups.id })
    .from(productGroups)
    .where(and(eq(productGroups.kind, 'category'), isNull(productGroups.parentId)))
    .orderBy(asc(productGroups.id));
  // Top-level categories: neither lists the other's products.
  categories = rows.map((row) => row.id);
});

/** A product body with two options (colour: 2, size: 2) and their four SKUs, codes unique to this call. */
function teapot(overrides: Partial<Body> = {}): Body {
  runTag += 1;
  const tag = `${process.pid}-${Date.now().toString(36)}-${runTag}`;
  const sku = (values: number[], suffix: string, price: number) => ({
    values,
    code: `TP-${tag}-${suffix}`,
    price_minor: price,
    initial_stock: 5,
    hs_code: '691200',
    origin_country: 'cn',
    customs_description: 'Ceramic teapot',
    image: null,
  });
  return {
    name: { en: `Test teapot ${tag}`, 'zh-cn': `测试茶壶 ${tag}` },
    description: { en: '<p>Glazed <strong>by hand</strong>.</p>', 'zh-cn': '<p>手工上釉。</p>' },
    seo_title: { en: 'Teapot', 'zh-cn': '' },
    seo_description: { en: '', 'zh-cn': '' },
    weight_grams: 800,
    service_notes: [1, 2] as Body['service_notes'],
    final_sale: false,
    group_ids: [categories[0]!],
    options: [
      {
        name: { en: 'Colour', 'zh-cn': '颜色' },
        values: [
          { value: { en: 'Celadon', 'zh-cn': '青瓷' }, swatch: '#9fbfa8' },
          { value: { en: 'Ink', 'zh-cn': '墨黑' }, swatch: '#222222' },
        ],
      },
      {
        name: { en: 'Size', 'zh-cn': '尺寸' },
        values: [
          { value: { en: 'Small', 'zh-cn': '小' }, swatch: null },
          { value: { en: 'Large', 'zh-cn': '大' }, swatch: null },
        ],
      },
    ],
    skus: [sku([0, 0], 'CS', 12_000), sku([0, 1], 'CL', 15_000), sku([1, 0], 'IS', 12_500), sku([1, 1], 'IL', 15_500)],
    images: [
      { url: '/images/products/teapot-1.webp', width: 800, height: 800, alt: { en: 'Front', 'zh-cn': '正面' } },
      { url: '/images/products/teapot-2.webp', width: 800, height: 600, alt: { en: 'Side', 'zh-cn': '' } },
    ],
    ...overrides,
  };
}

async function create(body: Body = teapot()) {
  const answer = await editor.request('/v1/admin/products', { method: 'POST', body });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data as { id: number; skus: Array<{ id: number; code: string; price_minor: number }> };
}

async function publish(id: number) {
  const answer = await editor.request(`/v1/admin/products/${id}/status`, {
    method: 'PUT',
    body: { status: 'published' },
  });
  expect(answer.status, answer.text).toBe(200);
}

/** The body the editor would send back for a product as read. */
async function bodyOf(id: number): Promise<Body> {
  const view = (await editor.request(`/v1/admin/products/${id}`)).body.data;
  return {
    name: view.name,
    description: view.description,
    seo_title: view.seo_title,
    seo_description: view.seo_description,
    weight_grams: view.weight_grams,
    service_notes: view.service_notes,
    final_sale: view.final_sale,
    group_ids: view.group_ids,
    options: view.options,
    skus: view.skus.map(({ stock, ...sku }: { stock: number }) => ({ ...sku, initial_stock: stock })),
    images: view.images,
  };
}

const productCount = async () => onlyCount(await server.ctx.db.select({ n: count() }).from(products));
const onlyCount = (rows: Array<{ n: number }>) => Number(rows[0]?.n);

describe('creating and publishing', () => {
  it('creates a draft with its option matrix, images and groups, off the shop until published, gone again once archived', async () => {
    const product = await create();
    const view = (await editor.request(`/v1/admin/products/${product.id}`)).body.data;
    expect(view.status).toBe('draft');
    expect(view.skus.map((sku: { values: number[] }) => sku.values)).toEqual([
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
    ]);
    expect(view.skus.map((sku: { stock: number }) => sku.stock)).toEqual([5, 5, 5, 5]);
    expect(view.skus[0].origin_country).toBe('CN');
    expect(view.images.map((image: { url: string }) => image.url)).toEqual([
      '/images/products/teapot-1.webp',
      '/images/products/teapot-2.webp',
    ]);
    expect(view.group_ids).toEqual([categories[0]]);
    expect(view.missing).toEqual({ name: [], description: [], seo_title: ['zh-cn'], seo_description: [] });
    expect((await server.request(`/v1/good/${product.id}`)).status).toBe(404);

    await publish(product.id);
    const shown = await server.request(`/v1/good/${product.id}`, { headers: { lang: 'zh-cn' } });
    expect(shown.status).toBe(200);
    expect(shown.body.data.name).toMatch(/^测试茶壶 /);
    expect(shown.body.data.good_sku.map((sku: { price_minor: number }) => sku.price_minor)).toEqual([
      12_000, 15_000, 12_500, 15_500,
    ]);
    expect(shown.body.data.property.map((property: { name: string }) => property.name)).toEqual(['颜色', '尺寸']);
    expect(shown.body.data.seo_title).toBe('');
    const english = await server.request(`/v1/good/${product.id}`, { headers: { lang: 'en' } });
    expect(english.body.data.seo_title).toBe('Teapot');
    expect((await server.request(`/en/product/${product.id}`)).text).toMatch(/<title>Teapot\b/);
    expect((await server.request(`/zh-cn/product/${product.id}`)).text).toMatch(/<title>测试茶壶 /);

    const buyer = await makeBuyer(server);
    const skuId = product.skus[0]!.id;
    const added = await buyer.call('/v1/cart/items', { method: 'POST', body: { sku_id: skuId, quantity: 1 } });
    expect(added.status).toBe(200);

    const archived = await editor.request(`/v1/admin/products/${product.id}/status`, {
      method: 'PUT',
      body: { status: 'archived' },
    });
    expect(archived.body.data.status).toBe('archived');
    expect((await server.request(`/v1/good/${product.id}`)).status).toBe(404);
    const [row] = await server.ctx.db
      .select({ listed: products.listed })
      .from(products)
      .where(eq(products.id, product.id));
    expect(row?.listed).toBe(false);
    // Archived: the cart says so and nothing more of it can be ordered.
    const cart = (await buyer.call('/v1/cart')).body.data;
    expect(cart.lines.find((line: { sku_id: number }) => line.sku_id === skuId)).toMatchObject({ problem: 'unlisted' });
    const again = await buyer.call('/v1/cart/items', { method: 'POST', body: { sku_id: skuId, quantity: 1 } });
    expect(again.status).toBe(400);
  });

  it('refuses to publish a product named in one language only', async () => {
    const product = await create(teapot({ name: { en: 'Only English', 'zh-cn': '' } }));
    const answer = await editor.request(`/v1/admin/products/${product.id}/status`, {
      method: 'PUT',
      body: { status: 'published' },
      headers: { lang: 'zh-cn' },
    });
    expect(answer.status).toBe(409);
    expect(answer.body.msg).toBe('发布前请填写中英文商品名称');
  });

  it('keeps safe markup of the description, drops scripts, event handlers and script links, and makes paragraphs of plain text', async () => {
    const product = await create(
      teapot({
        description: {
          en: '<p onclick="steal()">Hand <em>made</em><script>alert(1)</script><img src=x onerror="alert(2)"> <a href="javascript:alert(3)">x</a> <a href="https://example.com/care">care</a></p>',
          'zh-cn': '<style>body{}</style><p style="color:red">手工</p><iframe src="https://evil.example"></iframe>',
        },
      }),
    );
    const view = (await editor.request(`/v1/admin/products/${product.id}`)).body.data;
    expect(view.description).toEqual({
      en: '<p>Hand <em>made</em> <a rel="noopener noreferrer nofollow">x</a> <a href="https://example.com/care" rel="noopener noreferrer nofollow">care</a></p>',
      'zh-cn': '<p>手工</p>',
    });
    const plain = await create(teapot({ description: { en: 'Plain & simple\n\nSecond line', 'zh-cn': '' } }));
    expect((await editor.request(`/v1/admin/products/${plain.id}`)).body.data.description.en).toBe(
      '<p>Plain &amp; simple</p><p>Second line</p>',
    );
  });
});

describe('permissions', () => {
  it('a Fulfilment member reads products but cannot change a price; a member without catalogue or order access reads nothing', async () => {
    const product = await create();
    const packer = await createSignedInStaff(server, { role: 'fulfilment' });
    expect((await packer.request('/v1/admin/products')).status).toBe(200);
    expect((await packer.request(`/v1/admin/products/${product.id}`)).status).toBe(200);
    const body = await bodyOf(product.id);
    body.skus[0]!.price_minor = 1;
    const change = await packer.request(`/v1/admin/products/${product.id}`, { method: 'PUT', body });
    expect(change.status).toBe(403);
    expect((await packer.request('/v1/admin/products', { method: 'POST', body: teapot() })).status).toBe(403);
    const publishing = await packer.request(`/v1/admin/products/${product.id}/status`, {
      method: 'PUT',
      body: { status: 'published' },
    });
    expect(publishing.status).toBe(403);
    const [sku] = await server.ctx.db
      .select({ price: productSkus.priceMinor })
      .from(productSkus)
      .where(eq(productSkus.id, product.skus[0]!.id));
    expect(sku?.price).toBe(12_000);

    const outsider = await createSignedInStaff(server, { permissions: ['customers:read'] });
    expect((await outsider.request('/v1/admin/products')).status).toBe(403);
    expect((await outsider.request(`/v1/admin/products/${product.id}`)).status).toBe(403);
    expect((await server.request('/v1/admin/products')).status).toBe(401);
  });
});

describe('bad input is refused with a localized message and nothing is written', () => {
  it.each([
    ['en', 'A price cannot be negative'],
    ['zh-cn', '价格不能为负数'],
  ])('a negative price (%s)', async (lang, message) => {
    const before = await productCount();
    const body = teapot();
    body.skus[2]!.price_minor = -100;
    const answer = await editor.request('/v1/admin/products', { method: 'POST', body, headers: { lang } });
    expect(answer.status).toBe(400);
    expect(answer.body.msg).toBe(message);
    expect(await productCount()).toBe(before);
  });

  it('a SKU code twice in one product, named', async () => {
    const body = teapot();
    body.skus[3]!.code = body.skus[1]!.code.toLowerCase();
    const answer = await editor.request('/v1/admin/products', { method: 'POST', body });
    expect(answer.status).toBe(400);
    expect(answer.body.msg).toBe(`The SKU code ${body.skus[3]!.code} is already used`);
  });

  it("another product's SKU code: the whole save is refused, the first product keeps its own", async () => {
    const first = await create();
    const before = await productCount();
    const body = teapot();
    body.skus[2]!.code = first.skus[0]!.code;
    const answer = await editor.request('/v1/admin/products', { method: 'POST', body, headers: { lang: 'zh-cn' } });
    expect(answer.status).toBe(400);
    expect(answer.body.msg).toBe(`SKU 编码 ${first.skus[0]!.code} 已被使用`);
    expect(await productCount()).toBe(before);

    // An update that fails on its third SKU leaves the name, the first SKUs' prices and the images as they were.
    const second = await create();
    const update = await bodyOf(second.id);
    update.name = { en: 'Renamed', 'zh-cn': '改名' };
    update.skus[0]!.price_minor = 99;
    update.images = [];
    update.skus[2]!.code = first.skus[1]!.code;
    expect((await editor.request(`/v1/admin/products/${second.id}`, { method: 'PUT', body: update })).status).toBe(400);
    const after = await bodyOf(second.id);
    expect(after.name.en).toMatch(/^Test teapot /);
    expect(after.skus.map((sku) => sku.price_minor)).toEqual([12_000, 15_000, 12_500, 15_500]);
    expect(after.images).toHaveLength(2);
  });

  it('a SKU that misses an option value, an unknown group, and two categories', async () => {
    const body = teapot();
    body.skus[0]!.values = [0];
    expect((await editor.request('/v1/admin/products', { method: 'POST', body })).body.msg).toBe(
      'Each SKU needs one value of every option',
    );
    const before = await productCount();
    const lost = await editor.request('/v1/admin/products', { method: 'POST', body: teapot({ group_ids: [999_999] }) });
    expect(lost.status).toBe(400);
    expect(lost.body.msg).toBe('There is no group 999999');
    const twoCategories = await editor.request('/v1/admin/products', {
      method: 'POST',
      body: teapot({ group_ids: [categories[0]!, categories[1]!] }),
      headers: { lang: 'zh-cn' },
    });
    expect([twoCategories.status, twoCategories.body.msg]).toEqual([
      400,
      '一个商品只能属于一个分类，请只选一个（首页栏目不限）',
    ]);
    expect(await productCount()).toBe(before);
  });
});

describe('saving an existing product', () => {
  it('changes prices, keeps stock of existing SKUs, adds new SKUs with their initial stock, and audits before and after', async () => {
    const product = await create();
    await server.ctx.db.update(productSkus).set({ stock: 2 }).where(eq(productSkus.id, product.skus[0]!.id));
    const body = await bodyOf(product.id);
    body.skus[0]!.price_minor = 13_000;
    body.skus[0]!.initial_stock = 999;
    body.options[1]!.values.push({ value: { en: 'Huge', 'zh-cn': '特大' }, swatch: null });
    body.skus.push({
      ...body.skus[0]!,
      id: undefined,
      values: [0, 2],
      code: `${body.skus[0]!.code}-H`,
      initial_stock: 7,
    });
    const saved = await editor.request(`/v1/admin/products/${product.id}`, { method: 'PUT', body });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.data.skus.map((sku: { stock: number }) => sku.stock)).toEqual([2, 5, 5, 5, 7]);
    expect(saved.body.data.skus[0].price_minor).toBe(13_000);
    expect(saved.body.data.skus[4].values).toEqual([0, 2]);

    const [event] = await server.ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityType, 'product'), eq(auditEvents.entityId, String(product.id))))
      .orderBy(asc(auditEvents.id))
      .offset(1);
    expect(event?.action).toBe('product.updated');
    expect(event?.actorId).toBe(editor.id);
    const skusChange = (event?.changes as Record<string, { before: Array<{ price_minor: number }>; after: unknown[] }>)
      .skus;
    expect(skusChange?.before[0]?.price_minor).toBe(12_000);
    expect(skusChange?.after).toHaveLength(5);
  });
});

describe('cached pages a product change retires', () => {
  const rawGet = (path: string) => rawHttpGet(server.url + path, {});

  it("retires the edited product's page and its group's listing, and leaves another product's page and another group's listing cached", async () => {
    const edited = await create(teapot({ group_ids: [categories[0]!] }));
    const other = await create(teapot({ group_ids: [categories[1]!] }));
    await publish(edited.id);
    await publish(other.id);
    const addresses = {
      editedPage: `/en/product/${edited.id}`,
      editedApi: `/v1/good/${edited.id}`,
      otherPage: `/en/product/${other.id}`,
      otherApi: `/v1/good/${other.id}`,
      editedGroup: `/v1/good/list?group_id=${categories[0]}&page_size=50`,
      otherGroup: `/v1/good/list?group_id=${categories[1]}&page_size=50`,
      content: '/en/faq',
    };
    for (const path of Object.values(addresses)) {
      await rawGet(path);
      expect((await rawGet(path)).headers['x-cache'], path).toBe('hit');
    }

    const body = await bodyOf(edited.id);
    body.skus[0]!.price_minor = 33_300;
    expect((await editor.request(`/v1/admin/products/${edited.id}`, { method: 'PUT', body })).status).toBe(200);

    for (const path of [addresses.otherPage, addresses.otherApi, addresses.otherGroup, addresses.content])
      expect((await rawGet(path)).headers['x-cache'], path).toBe('hit');
    const api = await rawGet(addresses.editedApi);
    expect(api.headers['x-cache']).toBe('miss');
    expect(JSON.parse(api.body.toString()).data.price_range.min_minor).toBe(12_500);
    expect(JSON.parse(api.body.toString()).data.good_sku[0].price_minor).toBe(33_300);
    const page = await rawGet(addresses.editedPage);
    expect(page.headers['x-cache']).not.toBe('hit');
    expect(page.body.toString()).toContain('333');
    const listing = await rawGet(addresses.editedGroup);
    expect(listing.headers['x-cache']).toBe('miss');
  });
});
