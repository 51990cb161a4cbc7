import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { afterSales, orderItems, orders, productSkus } from '../../server/db/schema';
import { PERMISSIONS } from '../../server/domains/staff/permissions';
import { germanAddress, makeShopper, type Buyer } from '../support/buyers';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { useTestApp } from '../support/test-server';
import {
  afterSaleSku,
  caseRow,
  deliveredDaysAgo,
  evidencePhoto,
  orderAt,
  RED_PIXEL_PNG,
  type OrderFixture,
  type PreparedLine,
} from './after-sales-fixtures';

/**
 * What the after-sale API refuses (ADR 0130), each with the exact message the buyer or the
 * operator reads, in English and, for several, in Chinese (`lang: zh-cn`). Someone else's
 * order or case is "not found", never "forbidden".
 */
const server = useTestApp();
let owner: TestStaff;
let mug: PreparedLine;
let shirt: PreparedLine;
let finalSale: PreparedLine;
let keys = 0;
const key = () => `refusal-${process.pid}-${Date.now()}-${++keys}`;

beforeAll(async () => {
  owner = await createSignedInStaff(server, { permissions: PERMISSIONS, refundLimitMinor: null });
  mug = await afterSaleSku(server, 4_500);
  shirt = await afterSaleSku(server, 12_000);
  finalSale = await afterSaleSku(server, 3_000, { finalSale: true });
});

interface Ask {
  type?: number;
  reason?: string;
  photos?: string[];
  lines?: Array<{ order_item_id: number; quantity: number; wanted_sku_id?: number }>;
  idempotency_key?: string;
  [field: string]: unknown;
}

/** `POST /v1/after-sale` as `buyer` on `order`: one unit of its first line, refund only, changed mind, unless told. */
function ask(buyer: Buyer, order: OrderFixture | { orderId: number; itemIds: number[] }, body: Ask = {}, lang = 'en') {
  return buyer.call('/v1/after-sale', {
    method: 'POST',
    headers: { lang },
    body: {
      order_id: order.orderId,
      type: 10,
      reason: 'changed_mind',
      lines: [{ order_item_id: order.itemIds[0], quantity: 1 }],
      idempotency_key: key(),
      ...body,
    },
  });
}

/** The product name an order line was sold under, in both languages, from the order's own snapshot. */
async function soldAs(itemId: number): Promise<{ en: string; zh: string }> {
  const [item] = await server.ctx.db.select().from(orderItems).where(eq(orderItems.id, itemId));
  const name = item!.productName as Record<string, string>;
  return { en: name.en!, zh: name['zh-cn'] ?? name.en! };
}

const refused = (status: number, msg: string) => ({ status, body: { code: status, msg, data: null } });
const answer = (response: { status: number; body: unknown }) => ({ status: response.status, body: response.body });

describe("someone else's order or case", () => {
  it('is not found: GET, cancel, tracking and appeal of the case, the options and estimate of the order', async () => {
    const order = await orderAt(server, owner, { lines: [{ sku: mug, quantity: 1 }], stage: 'received' });
    const created = await ask(order.buyer, order);
    expect(created.status).toBe(200);
    const caseId = created.body.data.id as number;
    const stranger = await makeShopper(server);

    const notFound = refused(404, 'After-sale request not found');
    expect(answer(await stranger.call(`/v1/after-sale/${caseId}`))).toEqual(notFound);
    expect(answer(await stranger.call(`/v1/after-sale/${caseId}/cancel`, { method: 'PUT' }))).toEqual(notFound);
    expect(
      answer(
        await stranger.call(`/v1/after-sale/${caseId}/tracking`, {
          method: 'PUT',
          body: { carrier: 'DHL', tracking_no: 'JD0146000012345' },
        }),
      ),
    ).toEqual(notFound);
    expect(
      answer(await stranger.call(`/v1/after-sale/${caseId}/appeal`, { method: 'PUT', body: { message: 'Please.' } })),
    ).toEqual(notFound);
    expect(answer(await stranger.call(`/v1/after-sale/${caseId}/confirm`, { method: 'PUT' }))).toEqual(notFound);
    expect(answer(await stranger.call(`/v1/after-sale/${caseId}`, { headers: { lang: 'zh-cn' } }))).toEqual(
      refused(404, '未找到该售后申请'),
    );
    // An id nobody has answers the same.
    expect(answer(await stranger.call('/v1/after-sale/999999999'))).toEqual(notFound);

    expect(answer(await stranger.call(`/v1/after-sale/order/${order.orderId}`))).toEqual(
      refused(404, 'Order not found'),
    );
    expect(
      answer(await stranger.call(`/v1/after-sale/order/${order.orderId}`, { headers: { lang: 'zh-cn' } })),
    ).toEqual(refused(404, '订单不存在'));
    expect(
      answer(
        await stranger.call('/v1/after-sale/estimate', {
          method: 'POST',
          body: { order_id: order.orderId, type: 10, lines: [{ order_item_id: order.itemIds[0], quantity: 1 }] },
        }),
      ),
    ).toEqual(refused(404, 'Order not found'));
    expect(answer(await ask(stranger, order))).toEqual(refused(404, 'Order not found'));
    // The stranger's list is empty and the case did not move.
    expect((await stranger.call('/v1/order/afterSaleList')).body.data).toMatchObject({ records: [], total: 0 });
    expect((await caseRow(server, caseId)).state).toBe('requested');
  });

  it("refuses another buyer's photo as evidence", async () => {
    const order = await orderAt(server, owner, { lines: [{ sku: mug, quantity: 1 }], stage: 'received' });
    const stranger = await makeShopper(server);
    const theirs = await evidencePhoto(stranger);
    const mine = await evidencePhoto(order.buyer);
    const body = { reason: 'damaged', photos: [mine, theirs] };
    expect(answer(await ask(order.buyer, order, body))).toEqual(
      refused(400, 'A photo is not one you uploaded; upload it again'),
    );
    expect(answer(await ask(order.buyer, order, body, 'zh-cn'))).toEqual(
      refused(400, '有图片不是您上传的，请重新上传'),
    );
    // An address of the right shape that names no upload.
    expect(
      answer(
        await ask(order.buyer, order, { reason: 'damaged', photos: ['/v1/upload/private/AAAAAAAAAAAAAAAAAAAAAA'] }),
      ),
    ).toEqual(refused(400, 'A photo is not one you uploaded; upload it again'));
    // A public upload address is not evidence either.
    expect(answer(await ask(order.buyer, order, { reason: 'damaged', photos: ['/uploads/2026-11/abc.webp'] }))).toEqual(
      refused(400, 'A photo is not one you uploaded; upload it again'),
    );
    expect(answer(await ask(order.buyer, order, { reason: 'damaged', photos: [mine] })).status).toBe(200);
  });
});

describe('quantities', () => {
  it('refuses more units than were bought, and more than are left after another case', async () => {
    const order = await orderAt(server, owner, { lines: [{ sku: mug, quantity: 2 }], stage: 'received' });
    const name = await soldAs(order.itemIds[0]!);
    const three = { lines: [{ order_item_id: order.itemIds[0]!, quantity: 3 }] };
    expect(answer(await ask(order.buyer, order, three))).toEqual(
      refused(409, `You can ask for at most 2 of "${name.en}"`),
    );
    expect(answer(await ask(order.buyer, order, three, 'zh-cn'))).toEqual(refused(409, `“${name.zh}”最多可申请 2 件`));
    expect((await ask(order.buyer, order)).status).toBe(200);
    const two = { lines: [{ order_item_id: order.itemIds[0]!, quantity: 2 }] };
    expect(answer(await ask(order.buyer, order, two))).toEqual(
      refused(409, `You can ask for at most 1 of "${name.en}"`),
    );
    // The last unit can still be asked for; after it, none.
    expect((await ask(order.buyer, order)).status).toBe(200);
    expect(answer(await ask(order.buyer, order))).toEqual(refused(409, `You can ask for at most 0 of "${name.en}"`));
    const options = await order.buyer.call(`/v1/after-sale/order/${order.orderId}`);
    expect(options.body.data).toMatchObject({
      eligible: false,
      refusal: 'Every item of this order is already in an after-sale request',
      lines: [{ bought: 2, available: 0 }],
    });
  });

  it('gives the units to one of two requests sent at once', async () => {
    const order = await orderAt(server, owner, { lines: [{ sku: mug, quantity: 2 }], stage: 'received' });
    const name = await soldAs(order.itemIds[0]!);
    const both = { lines: [{ order_item_id: order.itemIds[0]!, quantity: 2 }] };
    const answers = await Promise.all([ask(order.buyer, order, both), ask(order.buyer, order, both)]);
    expect(answers.map((one) => one.status).sort()).toEqual([200, 409]);
    expect(answers.find((one) => one.status === 409)!.body.msg).toBe(`You can ask for at most 0 of "${name.en}"`);
    const cases = await server.ctx.db.select().from(afterSales).where(eq(afterSales.orderId, order.orderId));
    expect(cases).toHaveLength(1);
  });

  it('refuses a line of another order', async () => {
    const order = await orderAt(server, owner, { lines: [{ sku: mug, quantity: 1 }], stage: 'received' });
    const other = await orderAt(server, owner, { lines: [{ sku: mug, quantity: 1 }], stage: 'received' });
    expect(
      answer(await ask(order.buyer, order, { lines: [{ order_item_id: other.itemIds[0]!, quantity: 1 }] })),
    ).toEqual(refused(400, 'That item is not part of this order'));
  });
});

describe('the window', () => {
  async function deliveredOn(orderId: number, at: string) {
    await server.ctx.db
      .update(orders)
      .set({ deliveredAt: new Date(at), receivedAt: new Date(at) })
      .where(eq(orders.id, orderId));
  }

  it('gives a German buyer 14 days and a Chinese buyer 7, then says when it closed', async () => {
    const german = await orderAt(server, owner, {
      lines: [{ sku: mug, quantity: 2 }],
      stage: 'received',
      address: germanAddress,
    });
    await deliveredDaysAgo(server, german.orderId, 13);
    expect((await ask(german.buyer, german)).status).toBe(200);
    await deliveredDaysAgo(server, german.orderId, 15);
    const closedDe = await ask(german.buyer, german);
    expect(closedDe.status).toBe(409);
    expect(closedDe.body.msg).toMatch(/^The after-sale window for this order closed on \d{1,2} [A-Z][a-z]{2} \d{4}$/);
    // On a date written out: delivered 1 March 2025, 14 days → closed 15 March 2025.
    await deliveredOn(german.orderId, '2025-03-01T10:00:00Z');
    expect(answer(await ask(german.buyer, german))).toEqual(
      refused(409, 'The after-sale window for this order closed on 15 Mar 2025'),
    );
    expect(answer(await ask(german.buyer, german, {}, 'zh-cn'))).toEqual(
      refused(409, '该订单的售后期限已于 2025年3月15日 结束'),
    );

    const chinese = await orderAt(server, owner, { lines: [{ sku: mug, quantity: 2 }], stage: 'received' });
    await deliveredDaysAgo(server, chinese.orderId, 6);
    expect((await ask(chinese.buyer, chinese)).status).toBe(200);
    await deliveredDaysAgo(server, chinese.orderId, 8);
    expect((await ask(chinese.buyer, chinese)).status).toBe(409);
    await deliveredOn(chinese.orderId, '2025-03-01T10:00:00Z');
    expect(answer(await ask(chinese.buyer, chinese))).toEqual(
      refused(409, 'The after-sale window for this order closed on 8 Mar 2025'),
    );
    const options = await chinese.buyer.call(`/v1/after-sale/order/${chinese.orderId}`);
    expect(options.body.data).toMatchObject({
      eligible: false,
      refusal: 'The after-sale window for this order closed on 8 Mar 2025',
      window_ends_at: '2025-03-08T10:00:00.000Z',
      window_days: 7,
    });
  });
});

describe('what an order and its items allow', () => {
  it('refuses a final-sale item for a change of mind, and takes it back damaged with a photo', async () => {
    const order = await orderAt(server, owner, { lines: [{ sku: finalSale, quantity: 1 }], stage: 'received' });
    const name = await soldAs(order.itemIds[0]!);
    expect(answer(await ask(order.buyer, order, { type: 20 }))).toEqual(
      refused(
        409,
        `"${name.en}" was sold as final sale: it can only be taken back if it arrived damaged, wrong or not as described`,
      ),
    );
    expect(answer(await ask(order.buyer, order, { type: 20 }, 'zh-cn'))).toEqual(
      refused(409, `“${name.zh}”为不退不换商品：仅在破损、发错或与描述不符时可以售后`),
    );
    const damaged = await ask(order.buyer, order, {
      type: 20,
      reason: 'damaged',
      photos: [await evidencePhoto(order.buyer)],
    });
    expect(damaged.status).toBe(200);
    expect(damaged.body.data).toMatchObject({ state: 'requested', estimate: { amount_minor: 3_000 } });
  });

  it('refuses an unpaid order', async () => {
    const buyer = await makeShopper(server);
    const placed = await buyer.call('/v2/order', {
      method: 'POST',
      body: { items: [{ sku_id: mug.skuId, quantity: 1 }], address_id: buyer.addressId },
    });
    expect(placed.status).toBe(200);
    const orderId = placed.body.data.id as number;
    const [item] = await server.ctx.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
    const order = { orderId, itemIds: [item!.id] };
    expect(answer(await ask(buyer, order))).toEqual(refused(409, 'Only a paid order can have an after-sale request'));
    expect(answer(await ask(buyer, order, {}, 'zh-cn'))).toEqual(refused(409, '只有已付款的订单才能申请售后'));
    expect((await buyer.call(`/v1/after-sale/order/${orderId}`)).body.data).toMatchObject({
      eligible: false,
      refusal: 'Only a paid order can have an after-sale request',
    });
  });

  it('takes only refunds before shipping', async () => {
    const order = await orderAt(server, owner, { lines: [{ sku: mug, quantity: 1 }], stage: 'paid' });
    expect(answer(await ask(order.buyer, order, { type: 20 }))).toEqual(
      refused(409, 'An order that has not shipped yet can only be refunded'),
    );
    expect(answer(await ask(order.buyer, order, { type: 20 }, 'zh-cn'))).toEqual(
      refused(409, '尚未发货的订单只能申请仅退款'),
    );
  });
});

describe('photos', () => {
  it('takes at most 9', async () => {
    const order = await orderAt(server, owner, { lines: [{ sku: mug, quantity: 1 }], stage: 'received' });
    const ten = Array.from({ length: 10 }, (_, index) => `/v1/upload/private/${'A'.repeat(21)}${index}`);
    expect(answer(await ask(order.buyer, order, { reason: 'damaged', photos: ten }))).toEqual(
      refused(400, 'At most 9 photos'),
    );
    expect(answer(await ask(order.buyer, order, { reason: 'damaged', photos: ten }, 'zh-cn'))).toEqual(
      refused(400, '最多上传 9 张图片'),
    );
  });

  it('are required when the shop is at fault: damaged, wrong item, not as described', async () => {
    const order = await orderAt(server, owner, { lines: [{ sku: mug, quantity: 1 }], stage: 'received' });
    for (const reason of ['damaged', 'wrong_item', 'not_as_described'])
      expect(answer(await ask(order.buyer, order, { reason })), reason).toEqual(
        refused(400, 'Add at least one photo showing the problem'),
      );
    expect(answer(await ask(order.buyer, order, { reason: 'wrong_item' }, 'zh-cn'))).toEqual(
      refused(400, '请至少上传一张显示问题的图片'),
    );
    // Not for a change of mind.
    expect((await ask(order.buyer, order, { reason: 'size_fit' })).status).toBe(200);
  });
});

describe('an exchange', () => {
  it('needs a wanted option of the same product, other than the one bought', async () => {
    const order = await orderAt(server, owner, { lines: [{ sku: shirt, quantity: 1 }], stage: 'received' });
    const name = await soldAs(order.itemIds[0]!);
    const line = (wanted?: number) => ({
      type: 30,
      reason: 'size_fit',
      lines: [{ order_item_id: order.itemIds[0]!, quantity: 1, ...(wanted ? { wanted_sku_id: wanted } : {}) }],
    });
    expect(answer(await ask(order.buyer, order, line()))).toEqual(
      refused(400, `Choose the option you want instead of "${name.en}"`),
    );
    expect(answer(await ask(order.buyer, order, line(), 'zh-cn'))).toEqual(
      refused(400, `请选择“${name.zh}”想换的规格`),
    );
    const notAvailable = refused(400, `That option is not available for "${name.en}"`);
    expect(answer(await ask(order.buyer, order, line(mug.skuId)))).toEqual(notAvailable);
    expect(answer(await ask(order.buyer, order, line(shirt.skuId)))).toEqual(notAvailable);
    expect(answer(await ask(order.buyer, order, line(999_999_999)))).toEqual(notAvailable);
    expect(answer(await ask(order.buyer, order, line(mug.skuId), 'zh-cn'))).toEqual(
      refused(400, `“${name.zh}”没有该规格可换`),
    );
    // A refund names no wanted option.
    expect(
      answer(
        await ask(order.buyer, order, {
          lines: [{ order_item_id: order.itemIds[0]!, quantity: 1, wanted_sku_id: mug.skuId }],
        }),
      ),
    ).toEqual(notAvailable);
    const [sibling] = await server.ctx.db
      .select({ id: productSkus.id })
      .from(productSkus)
      .where(eq(productSkus.productId, shirt.productId))
      .then((rows) => rows.filter((row) => row.id !== shirt.skuId));
    expect(sibling).toBeDefined();
    await server.ctx.db.update(productSkus).set({ stock: 5 }).where(eq(productSkus.id, sibling!.id));
    expect((await ask(order.buyer, order, line(sibling!.id))).status).toBe(200);
  });
});

describe('evidence uploads', () => {
  async function upload(buyer: Buyer, bytes: Buffer, type: string, lang = 'en') {
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(bytes)], { type }), 'evidence');
    const encoded = new Request('http://shop.test/', { method: 'POST', body: form });
    return buyer.call('/v1/upload?purpose=evidence', {
      method: 'POST',
      rawBody: Buffer.from(await encoded.arrayBuffer()),
      headers: { lang, 'content-type': encoded.headers.get('content-type')! },
    });
  }

  it('refuses a file that is not an image (400) and one of 20 MB (413)', async () => {
    const buyer = await makeShopper(server);
    expect(answer(await upload(buyer, Buffer.from('%PDF-1.7 not an image'), 'application/pdf'))).toEqual(
      refused(400, 'Only image files can be uploaded'),
    );
    expect(answer(await upload(buyer, Buffer.from('%PDF-1.7 not an image'), 'application/pdf', 'zh-cn'))).toEqual(
      refused(400, '只能上传图片文件'),
    );
    // UPLOAD_MAX_BYTES is 5 MB unless set (server/shared/env.ts).
    const huge = Buffer.concat([RED_PIXEL_PNG, Buffer.alloc(20 * 1024 * 1024)]);
    expect(answer(await upload(buyer, huge, 'image/png'))).toEqual(
      refused(413, 'The image is too large (at most 5 MB)'),
    );
    expect(answer(await upload(buyer, huge, 'image/png', 'zh-cn'))).toEqual(refused(413, '图片过大（最多 5 MB）'));
  });
});

describe('the operator', () => {
  async function requested(sku: PreparedLine, type: number) {
    const order = await orderAt(server, owner, { lines: [{ sku, quantity: 1 }], stage: 'received' });
    const created = await ask(order.buyer, order, { type });
    expect(created.status).toBe(200);
    return created.body.data.id as number;
  }

  it('cannot approve more than the request is worth', async () => {
    const caseId = await requested(mug, 10);
    const approve = (body: Record<string, unknown>, lang = 'en') =>
      owner.request(`/v1/admin/after-sales/${caseId}/approve`, { method: 'POST', body, headers: { lang } });
    expect(answer(await approve({ amount_minor: 4_501 }))).toEqual(
      refused(409, 'At most CN¥45.00 can be refunded for this request'),
    );
    expect(answer(await approve({ amount_minor: 4_501 }, 'zh-cn'))).toEqual(refused(409, '此申请最多可退 CN¥45.00'));
    expect(answer(await approve({ amount_minor: 0 }))).toEqual(refused(400, 'Enter an amount above zero'));
    expect((await caseRow(server, caseId)).state).toBe('requested');
    const approved = await approve({ amount_minor: 4_500 });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ state: 'approved', approved: { amount_minor: 4_500 } });
  });

  it('refunds without the parcel only below AFTER_SALE_RETURNLESS_BELOW_MINOR (100.00)', async () => {
    const caseId = await requested(shirt, 20);
    const approve = (body: Record<string, unknown>) =>
      owner.request(`/v1/admin/after-sales/${caseId}/approve`, { method: 'POST', body: { returnless: true, ...body } });
    const tooHigh = refused(409, 'A refund without return must be below CN¥100.00');
    expect(answer(await approve({}))).toEqual(tooHigh);
    expect(answer(await approve({ amount_minor: 10_000 }))).toEqual(tooHigh);
    const below = await approve({ amount_minor: 9_999 });
    expect(below.status).toBe(200);
    expect(below.body.data).toMatchObject({ state: 'approved', returnless: true, approved: { amount_minor: 9_999 } });
  });

  it('cannot move a case the lifecycle does not allow', async () => {
    const caseId = await requested(mug, 10);
    const moveRefused = refused(
      409,
      'This request has changed in the meantime. Reload the page to see where it stands',
    );
    expect(
      answer(
        await owner.request(`/v1/admin/after-sales/${caseId}/refund`, {
          method: 'POST',
          body: { idempotency_key: key() },
        }),
      ),
    ).toEqual(moveRefused);
    expect(
      answer(
        await owner.request(`/v1/admin/after-sales/${caseId}/ship-exchange`, {
          method: 'POST',
          body: { carrier_code: 'shunfeng', tracking_no: 'SF1234567890' },
        }),
      ),
    ).toEqual(moveRefused);
    expect((await caseRow(server, caseId)).state).toBe('requested');
  });
});

describe('idempotency', () => {
  it('answers the same case to a repeated key, sent one after the other or both at once', async () => {
    const order = await orderAt(server, owner, { lines: [{ sku: mug, quantity: 3 }], stage: 'received' });
    const once = key();
    const first = await ask(order.buyer, order, { idempotency_key: once });
    const again = await ask(order.buyer, order, { idempotency_key: once });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body.data.id).toBe(first.body.data.id);

    const together = key();
    const [a, b] = await Promise.all([
      ask(order.buyer, order, { idempotency_key: together }),
      ask(order.buyer, order, { idempotency_key: together }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.data.id).toBe(b.body.data.id);
    expect(a.body.data.id).not.toBe(first.body.data.id);
    const cases = await server.ctx.db.select().from(afterSales).where(eq(afterSales.orderId, order.orderId));
    expect(cases).toHaveLength(2);

    const other = await orderAt(server, owner, { lines: [{ sku: mug, quantity: 1 }], stage: 'received' });
    const reused = { orderId: other.orderId, itemIds: other.itemIds };
    // The same buyer, another of their orders.
    const [otherOrder] = await server.ctx.db.select().from(orders).where(eq(orders.id, other.orderId));
    await server.ctx.db.update(orders).set({ userId: order.buyer.id }).where(eq(orders.id, otherOrder!.id));
    expect(answer(await ask(order.buyer, reused, { idempotency_key: once }))).toEqual(
      refused(409, 'This request key was already used for another request'),
    );
    expect(answer(await ask(order.buyer, reused, { idempotency_key: once }, 'zh-cn'))).toEqual(
      refused(409, '该请求标识已用于另一个申请'),
    );
  });
});

describe('malformed bodies', () => {
  it('name the field at fault', async () => {
    const order = await orderAt(server, owner, { lines: [{ sku: mug, quantity: 1 }], stage: 'received' });
    const line = { order_item_id: order.itemIds[0]!, quantity: 1 };
    const cases: Array<[Ask, string]> = [
      [{ lines: [{ ...line, quantity: '1' as unknown as number }] }, 'Quantity must be a number'],
      [{ lines: [{ ...line, quantity: 0 }] }, 'Quantity must be at least 1'],
      [{ lines: [{ ...line, quantity: 1.5 }] }, 'Quantity must be a whole number'],
      [{ type: 40 }, 'Service type is not in a valid format'],
      [
        { reason: 'bored' },
        'Reason must be one of damaged, wrong_item, not_as_described, changed_mind, size_fit, arrived_late, other',
      ],
      [
        { description: 'Broken\u0007' },
        'Description contains characters that are not allowed (control characters or broken text)',
      ],
      [{ photos: 'photo' as unknown as string[] }, 'Photos must be a list'],
      [{ lines: [] }, 'Choose at least one item'],
      [{ lines: [line, line] }, 'Each item can be chosen once per request'],
      [{ idempotency_key: 'x' }, 'The Idempotency-Key must be 8 to 128 letters, digits, dashes or underscores'],
      [{ order_id: 'one' }, 'Order ID must be a number'],
    ];
    for (const [body, message] of cases) {
      const response = await ask(order.buyer, order, body);
      expect(answer(response), message).toEqual(refused(400, message));
    }
    const tracked = await order.buyer.call('/v1/after-sale/1/tracking', {
      method: 'PUT',
      body: { carrier: 'DHL\u0000', tracking_no: 'JD0146000012345' },
    });
    expect(answer(tracked)).toEqual(
      refused(400, 'Carrier contains characters that are not allowed (control characters or broken text)'),
    );
    const zh = await ask(order.buyer, order, { lines: [{ ...line, quantity: '1' as unknown as number }] }, 'zh-cn');
    expect(zh.status).toBe(400);
    expect(zh.body.msg).toContain('数量');
    // Nothing was made.
    const cases2 = await server.ctx.db.select().from(afterSales).where(eq(afterSales.orderId, order.orderId));
    expect(cases2).toHaveLength(0);
  });
});

describe('rate limit', () => {
  it('answers 429 to the 21st request of a buyer within the hour (afterSale.user = 20/3600)', async () => {
    const buyer = await makeShopper(server);
    const nowhere = { orderId: 999_999_999, itemIds: [999_999_999] };
    for (let attempt = 1; attempt <= 20; attempt += 1)
      expect((await ask(buyer, nowhere)).status, `attempt ${attempt}`).toBe(404);
    const limited = await ask(buyer, nowhere);
    expect(limited.status).toBe(429);
    expect(limited.body.msg).toMatch(/^Too many requests\. Please try again in (3600|3599) seconds$/);
    const chinese = await ask(buyer, nowhere, {}, 'zh-cn');
    expect(chinese.body.msg).toMatch(/^请求过于频繁，请在 (3600|3599) 秒后重试$/);
    // Another buyer is not held back.
    expect((await ask(await makeShopper(server), nowhere)).status).toBe(404);
  });
});
