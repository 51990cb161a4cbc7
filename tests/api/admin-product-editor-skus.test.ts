import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  afterSaleLines,
  afterSales,
  auditEvents,
  orderItems,
  productGroups,
  productSkus,
} from '../../server/db/schema';
import type { ProductBody as Body } from '../../server/domains/catalog/product-editor.schemas';
import { unclassifiedSkus } from '../../server/domains/catalog/sku-customs';
import { makeShopper, placeOrderFor } from '../support/buyers';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { useTestServer } from '../support/test-server';

/**
 * Removing SKUs in the product editor never breaks what names them (ADR 0160), and product
 * images are only pictures the shop serves itself.
 */
const server = useTestServer();

let editor: TestStaff;
let manager: TestStaff;
let category: number;

beforeAll(async () => {
  editor = await createSignedInStaff(server, { role: 'catalogue' });
  manager = await createSignedInStaff(server, { role: 'manager' });
  const [row] = await server.ctx.db
    .select({ id: productGroups.id })
    .from(productGroups)
    .where(and(eq(productGroups.kind, 'category'), isNull(productGroups.parentId)))
    .orderBy(asc(productGroups.id))
    .limit(1);
  category = row!.id;
});

let runTag = 0;
/** A mug in three colours, one SKU each, codes unique to this call. */
function mug(): Body {
  runTag += 1;
  const tag = `${process.pid}-${Date.now().toString(36)}-${runTag}`;
  const colours = [
    { en: 'Red', 'zh-cn': '红' },
    { en: 'Blue', 'zh-cn': '蓝' },
    { en: 'Green', 'zh-cn': '绿' },
  ];
  return {
    name: { en: `Retire mug ${tag}`, 'zh-cn': `退役杯 ${tag}` },
    description: { en: '<p>Mug</p>', 'zh-cn': '<p>杯子</p>' },
    seo_title: { en: '', 'zh-cn': '' },
    seo_description: { en: '', 'zh-cn': '' },
    weight_grams: 300,
    service_notes: [],
    final_sale: false,
    group_ids: [category],
    options: [{ name: { en: 'Colour', 'zh-cn': '颜色' }, values: colours.map((value) => ({ value, swatch: null })) }],
    skus: colours.map((colour, index) => ({
      values: [index],
      code: `MUG-${tag}-${colour.en.toUpperCase()}`,
      price_minor: 3_000 + index * 100,
      initial_stock: 10,
      hs_code: null,
      origin_country: null,
      customs_description: null,
      image: null,
    })),
    images: [{ url: '/images/demo/mug.webp', width: 800, height: 800, alt: { en: 'Mug', 'zh-cn': '杯子' } }],
  };
}

type View = { id: number; skus: Array<{ id: number; code: string; values: number[]; stock: number }> };

async function createPublished(body: Body): Promise<View> {
  const created = await editor.request('/v1/admin/products', { method: 'POST', body });
  expect(created.status, created.text).toBe(200);
  const id = created.body.data.id as number;
  const published = await editor.request(`/v1/admin/products/${id}/status`, {
    method: 'PUT',
    body: { status: 'published' },
  });
  expect(published.status, published.text).toBe(200);
  return published.body.data as View;
}

/** The editor's save keeping only the SKUs at `keep` (positions in the body) and the option values they use. */
function keeping(body: Body, view: View, keep: number[]): Body {
  const option = body.options[0]!;
  return {
    ...body,
    options: [{ ...option, values: keep.map((index) => option.values[index]!) }],
    skus: keep.map((index, position) => ({ ...body.skus[index]!, id: view.skus[index]!.id, values: [position] })),
  };
}

async function skuRow(id: number) {
  const [row] = await server.ctx.db.select().from(productSkus).where(eq(productSkus.id, id));
  return row;
}

describe('removing SKUs that something names', () => {
  it('retires a SKU that was ordered or sits in a cart: orders keep their lines, the shop stops selling it', async () => {
    const body = mug();
    const product = await createPublished(body);
    const [red, blue, green] = product.skus;
    const buyer = await makeShopper(server);
    const order = await placeOrderFor(buyer, red!.id, 2);
    const carted = await buyer.call('/v1/cart/items', { method: 'POST', body: { sku_id: blue!.id, quantity: 1 } });
    expect(carted.status, carted.text).toBe(200);

    // Remove Red (ordered) and Blue (in a cart): the option values go with them.
    const saved = await editor.request(`/v1/admin/products/${product.id}`, {
      method: 'PUT',
      body: keeping(body, product, [2]),
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.data.skus.map((sku: { id: number }) => sku.id)).toEqual([green!.id]);

    // Kept, out of stock, code freed, for the order and the cart that name them.
    for (const sku of [red!, blue!]) {
      const row = await skuRow(sku.id);
      expect(row).toMatchObject({ stock: 0, code: `${sku.code}~${sku.id}` });
      expect(row!.retiredAt).toBeInstanceOf(Date);
    }
    const [audit] = await server.ctx.db
      .select({ changes: auditEvents.changes })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'product.skus_retired'), eq(auditEvents.entityId, String(product.id))));
    expect(audit?.changes).toEqual({
      skus: {
        before: [
          { id: red!.id, code: red!.code, stock: 8 },
          { id: blue!.id, code: blue!.code, stock: 10 },
        ],
        after: [
          { id: red!.id, stock: 0, retired: true },
          { id: blue!.id, stock: 0, retired: true },
        ],
      },
    });

    // The buyer's order and the console's order detail still show the line as sold.
    const seen = await buyer.call(`/v1/order/${order.id}`);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.data.items).toEqual([
      expect.objectContaining({
        sku_id: red!.id,
        product_id: product.id,
        name: body.name.en,
        properties: 'Colour: Red',
        quantity: 2,
      }),
    ]);
    const detail = await manager.request(`/v1/admin/orders/${order.id}`);
    expect(detail.status, detail.text).toBe(200);
    expect(detail.body.data.lines).toEqual([
      expect.objectContaining({
        sku_id: red!.id,
        sku_code: red!.code,
        name: body.name.en,
        properties: 'Colour: Red',
        quantity: 2,
        unit_price_minor: 3_000,
      }),
    ]);

    // The shop: only Green on the page, priced from Green; the cart line cannot be bought.
    const page = await server.request(`/v1/good/${product.id}`, { headers: { lang: 'en' } });
    expect(page.body.data.good_sku.map((sku: { id: number }) => sku.id)).toEqual([green!.id]);
    const cart = await buyer.call('/v1/cart');
    expect(cart.status, cart.text).toBe(200);
    expect(cart.body.data.lines.find((line: { sku_id: number }) => line.sku_id === blue!.id)).toMatchObject({
      problem: 'unlisted',
    });
    const again = await buyer.call('/v1/cart/items', { method: 'POST', body: { sku_id: red!.id, quantity: 1 } });
    expect([again.status, again.body.msg]).toEqual([400, expect.stringContaining(body.name.en)]);
    const reordered = await buyer.call('/v2/order', {
      method: 'POST',
      body: { items: [{ sku_id: blue!.id, quantity: 1 }] },
    });
    expect(reordered.status).toBe(400);

    // A new SKU may take a retired one's code at once; the console's lists leave retired SKUs out.
    const reuse = await editor.request(`/v1/admin/products/${product.id}`, {
      method: 'PUT',
      body: {
        ...keeping(body, product, [2]),
        options: [{ ...body.options[0]!, values: [body.options[0]!.values[2]!, body.options[0]!.values[0]!] }],
        skus: [
          { ...body.skus[2]!, id: green!.id, values: [0] },
          { ...body.skus[0]!, values: [1] },
        ],
      },
    });
    expect(reuse.status, reuse.text).toBe(200);
    expect(reuse.body.data.skus.map((sku: { code: string }) => sku.code)).toEqual([green!.code, red!.code]);
    const inventory = await editor.request(`/v1/admin/inventory?q=${encodeURIComponent(red!.code)}`);
    expect(inventory.body.data.records.map((record: { sku_id: number }) => record.sku_id)).toEqual([
      reuse.body.data.skus[1].id,
    ]);
    const unclassified = (await unclassifiedSkus(server.ctx, 100_000)).map((sku) => sku.skuId);
    expect([red!.id, blue!.id, green!.id].map((id) => unclassified.includes(id))).toEqual([false, false, true]);
    const adjust = await editor.request(`/v1/admin/inventory/${red!.id}/adjustments`, {
      method: 'POST',
      body: { delta: 5, reason: 'received' },
    });
    expect(adjust.status).toBe(404);
    expect((await skuRow(red!.id))!.stock).toBe(0);
  });

  it('deletes a SKU nothing names', async () => {
    const body = mug();
    const product = await createPublished(body);
    const saved = await editor.request(`/v1/admin/products/${product.id}`, {
      method: 'PUT',
      body: keeping(body, product, [0, 1]),
    });
    expect(saved.status, saved.text).toBe(200);
    expect(await skuRow(product.skus[2]!.id)).toBeUndefined();
  });

  it('refuses to remove the SKU an open exchange waits for, naming it in the member language, and changes nothing', async () => {
    const body = mug();
    const product = await createPublished(body);
    const [red, blue] = product.skus;
    const buyer = await makeShopper(server);
    const order = await placeOrderFor(buyer, red!.id, 1);
    const [item] = await server.ctx.db
      .select({ id: orderItems.id })
      .from(orderItems)
      .where(eq(orderItems.orderId, order.id));
    // The buyer asked to swap Red for Blue; the shop waits for the parcel back.
    const [exchange] = await server.ctx.db
      .insert(afterSales)
      .values({
        caseNo: `${order.order_no}-1`,
        orderId: order.id,
        userId: buyer.id,
        type: 30,
        state: 'awaiting_parcel',
        reason: 'size_fit',
        estimateMinor: 3_000,
        idempotencyKey: randomUUID(),
      })
      .returning({ id: afterSales.id });
    await server.ctx.db.insert(afterSaleLines).values({
      afterSaleId: exchange!.id,
      orderItemId: item!.id,
      quantity: 1,
      refundMinor: 3_000,
      wantedSkuId: blue!.id,
    });

    const refused = await editor.request(`/v1/admin/products/${product.id}`, {
      method: 'PUT',
      body: keeping(body, product, [0, 2]),
      headers: { lang: 'zh-cn' },
    });
    expect([refused.status, refused.body.msg]).toEqual([
      409,
      `SKU ${blue!.code} 是一个进行中的换货要换给买家的商品：请先发出或关闭该换货，再删除它`,
    ]);
    const english = await editor.request(`/v1/admin/products/${product.id}`, {
      method: 'PUT',
      body: keeping(body, product, [0, 2]),
    });
    expect(english.body.msg).toBe(
      `SKU ${blue!.code} is the replacement an open exchange is waiting for: ship or close that exchange before removing it`,
    );
    expect(await skuRow(blue!.id)).toMatchObject({ code: blue!.code, stock: 10, retiredAt: null });
    expect((await editor.request(`/v1/admin/products/${product.id}`)).body.data.skus).toHaveLength(3);

    // Once the exchange is closed, the SKU retires like any other the orders name.
    await server.ctx.db.update(afterSales).set({ state: 'closed' }).where(eq(afterSales.id, exchange!.id));
    const saved = await editor.request(`/v1/admin/products/${product.id}`, {
      method: 'PUT',
      body: keeping(body, product, [0, 2]),
    });
    expect(saved.status, saved.text).toBe(200);
    expect(await skuRow(blue!.id)).toMatchObject({ code: `${blue!.code}~${blue!.id}`, stock: 0 });
    const cases = await manager.request(`/v1/admin/after-sales/${exchange!.id}`);
    expect(cases.status, cases.text).toBe(200);
  });
});

describe('image addresses', () => {
  const refusedUrls = [
    'javascript:alert(1)',
    'data:image/png;base64,iVBORw0KGgo=',
    '//evil.example/a.png',
    'https://evil.example/a.png',
    '/images/../../etc/passwd',
    '/images/demo/a\u0000.webp',
    '/images/demo/a\n.webp',
    '/admin/logo.png',
    '/images/h/abc.png?x=<script>',
    '/uploads/2026-11/a-buyers-photo.webp',
  ];

  it.each(refusedUrls)('refuses %j as a product image or a SKU image, in the member language', async (url) => {
    const body = mug();
    const asImage = await editor.request('/v1/admin/products', {
      method: 'POST',
      body: { ...body, images: [{ ...body.images[0]!, url }] },
      headers: { lang: 'zh-cn' },
    });
    expect(asImage.status).toBe(400);
    expect(asImage.body.msg).toContain('请使用本店保存的图片：在此上传，或填写本店的图片地址（以 /images/ 开头）');
    const asSku = await editor.request('/v1/admin/products', {
      method: 'POST',
      body: { ...body, skus: [{ ...body.skus[0]!, image: url }, ...body.skus.slice(1)] },
    });
    expect(asSku.status).toBe(400);
    expect(asSku.body.msg).toContain(
      'Use an image the shop holds: upload it here, or give its address on this shop (starting /images/)',
    );
  });

  it('takes the media upload and seeded addresses', async () => {
    const body = mug();
    const urls = ['/images/h/0123456789abcdef0123456789abcdef.webp', '/images/demo/teapot-1.webp'];
    const created = await editor.request('/v1/admin/products', {
      method: 'POST',
      body: {
        ...body,
        images: urls.map((url) => ({ ...body.images[0]!, url })),
        skus: [{ ...body.skus[0]!, image: urls[0] }, ...body.skus.slice(1)],
      },
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body.data.images.map((image: { url: string }) => image.url)).toEqual(urls);
    expect(created.body.data.skus[0].image).toBe(urls[0]);
  });
});
