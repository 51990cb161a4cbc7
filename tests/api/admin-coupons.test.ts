import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../server/db/schema';
import { chinaAddress, makeShopper, prepareSku } from '../support/buyers';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { useTestServer } from '../support/test-server';

/** The console's coupons (docs/console.md, "Coupons"; ADR 0175). */
const server = useTestServer();

let editor: TestStaff;
let sku: Awaited<ReturnType<typeof prepareSku>>;

const AUTUMN = {
  code: 'autumn-15',
  kind: 'percent',
  value: 15,
  min_spend_minor: 5_000,
  starts_at: null,
  expires_at: '2030-01-01T00:00:00.000Z',
  usage_limit: 100,
  active: true,
};

beforeAll(async () => {
  editor = await createSignedInStaff(server, { permissions: ['settings:write'] });
  sku = await prepareSku(server, { stock: 50, priceMinor: 10_000 });
});

function quote(shopper: Awaited<ReturnType<typeof makeShopper>>, couponCode: string, lang = 'en') {
  return shopper.call('/v2/order/confirm', {
    method: 'POST',
    body: { items: [{ sku_id: sku.id, quantity: 1 }], coupon_code: couponCode },
    headers: { lang },
  });
}

async function couponRow(code: string) {
  const list = await editor.request('/v1/admin/coupons');
  expect(list.status).toBe(200);
  return (list.body.data.records as Array<Record<string, unknown>>).find((row) => row.code === code);
}

describe('permissions', () => {
  it('a Fulfilment member can neither list nor create coupons', async () => {
    const packer = await createSignedInStaff(server, { role: 'fulfilment' });
    expect((await packer.request('/v1/admin/coupons')).status).toBe(403);
    const create = await packer.request('/v1/admin/coupons', { method: 'POST', body: { ...AUTUMN, code: 'PACKER' } });
    expect(create.status).toBe(403);
    expect(await couponRow('PACKER')).toBeUndefined();
  });
});

describe('bad input is refused with a localized message and nothing is written', () => {
  it.each([
    [{ kind: 'percent', value: 120 }, 'en', 'A percentage cannot be over 100'],
    [{ kind: 'percent', value: 120 }, 'zh-cn', '百分比不能超过 100'],
    [
      { starts_at: '2029-06-01T00:00:00.000Z', expires_at: '2029-05-01T00:00:00.000Z' },
      'en',
      'The end must be after the start',
    ],
    [
      { starts_at: '2029-06-01T00:00:00.000Z', expires_at: '2029-05-01T00:00:00.000Z' },
      'zh-cn',
      '结束时间必须晚于开始时间',
    ],
    [{ min_spend_minor: -100 }, 'en', 'Minimum spend must be at least 0'],
    [{ kind: 'fixed', value: -500 }, 'en', 'Discount must be at least 1'],
    [{ code: 'no spaces' }, 'en', 'The code must be 3 to 32 letters, digits, - or _'],
  ])('%j (%s)', async (change, lang, message) => {
    const answer = await editor.request('/v1/admin/coupons', {
      method: 'POST',
      body: { ...AUTUMN, code: 'BROKEN', ...change },
      headers: { lang },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.msg).toBe(message);
    expect(await couponRow('BROKEN')).toBeUndefined();
  });

  it('refuses a code that is taken, whatever its case', async () => {
    const first = await editor.request('/v1/admin/coupons', { method: 'POST', body: { ...AUTUMN, code: 'TWICE' } });
    expect(first.status).toBe(200);
    const again = await editor.request('/v1/admin/coupons', { method: 'POST', body: { ...AUTUMN, code: 'twice' } });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('The code TWICE is already taken');
    const zh = await editor.request('/v1/admin/coupons', {
      method: 'POST',
      body: { ...AUTUMN, code: 'Twice' },
      headers: { lang: 'zh-cn' },
    });
    expect(zh.body.msg).toBe('代码 TWICE 已被使用');
  });
});

describe('a coupon from the console at checkout', () => {
  it('is created, used, counted, locked after use, disabled and refused, and enabled again', async () => {
    const created = await editor.request('/v1/admin/coupons', { method: 'POST', body: AUTUMN });
    expect(created.status).toBe(200);
    const id = created.body.data.id as number;
    expect(created.body.data).toMatchObject({ code: 'AUTUMN-15', used_count: 0, buyers: 0, locked: false });

    // 15% of 100.00.
    const shopper = await makeShopper(server, chinaAddress);
    const quoted = await quote(shopper, 'Autumn-15');
    expect(quoted.status).toBe(200);
    expect(quoted.body.data.discount.amount_minor).toBe(1_500);
    const placed = await shopper.call('/v2/order', {
      method: 'POST',
      body: { items: [{ sku_id: sku.id, quantity: 1 }], coupon_code: 'autumn-15' },
    });
    expect(placed.status).toBe(200);

    expect(await couponRow('AUTUMN-15')).toMatchObject({
      used_count: 1,
      buyers: 1,
      discount_given_minor: 1_500,
      locked: true,
    });

    // Used: the value cannot change any more; the end date can.
    const revalued = await editor.request(`/v1/admin/coupons/${id}`, {
      method: 'PUT',
      body: { ...AUTUMN, value: 50 },
    });
    expect(revalued.status).toBe(409);
    expect(revalued.body.msg).toBe('This coupon has been used: its code, kind and value cannot change');
    const renamed = await editor.request(`/v1/admin/coupons/${id}`, {
      method: 'PUT',
      body: { ...AUTUMN, code: 'WINTER-15' },
      headers: { lang: 'zh-cn' },
    });
    expect(renamed.body.msg).toBe('此优惠券已被使用：代码、类型和优惠额不能再改');
    const extended = await editor.request(`/v1/admin/coupons/${id}`, {
      method: 'PUT',
      body: { ...AUTUMN, expires_at: '2031-01-01T00:00:00.000Z' },
    });
    expect(extended.status).toBe(200);
    expect(extended.body.data).toMatchObject({ expires_at: '2031-01-01T00:00:00.000Z', value: 15, used_count: 1 });

    const disabled = await editor.request(`/v1/admin/coupons/${id}/active`, { method: 'PUT', body: { active: false } });
    expect(disabled.status).toBe(200);
    expect(disabled.body.data.active).toBe(false);
    const refused = await quote(shopper, 'AUTUMN-15');
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe('This coupon code is not valid');
    expect((await quote(shopper, 'AUTUMN-15', 'zh-cn')).body.msg).toBe('优惠码无效');

    await editor.request(`/v1/admin/coupons/${id}/active`, { method: 'PUT', body: { active: true } });
    expect((await quote(shopper, 'AUTUMN-15')).body.data.discount.amount_minor).toBe(1_500);

    const events = await server.ctx.db
      .select({ action: auditEvents.action, changes: auditEvents.changes, actor: auditEvents.actorLabel })
      .from(auditEvents)
      .where(and(eq(auditEvents.entityType, 'coupon'), eq(auditEvents.entityId, String(id))))
      .orderBy(asc(auditEvents.id));
    expect(events.map((event) => event.action)).toEqual([
      'coupon.created',
      'coupon.updated',
      'coupon.disabled',
      'coupon.enabled',
    ]);
    expect(events.every((event) => event.actor === editor.email)).toBe(true);
    expect(events[1]?.changes).toEqual({
      expires_at: { before: '2030-01-01T00:00:00.000Z', after: '2031-01-01T00:00:00.000Z' },
    });
    expect(events[2]?.changes).toEqual({ active: { before: true, after: false } });
  });

  it('answers 404 for a coupon that does not exist', async () => {
    const answer = await editor.request('/v1/admin/coupons/999999/active', { method: 'PUT', body: { active: false } });
    expect(answer.status).toBe(404);
    expect(answer.body.msg).toBe('There is no such coupon');
  });
});
