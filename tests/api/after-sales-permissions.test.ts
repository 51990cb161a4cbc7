import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { refunds } from '../../server/db/schema';
import { PERMISSIONS } from '../../server/domains/staff/permissions';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { useTestApp } from '../support/test-server';
import { afterSaleSku, caseRow, orderAt, type PreparedLine } from './after-sales-fixtures';

/**
 * Who may work the after-sale desk (ADR 0130): reading needs aftersales:read, moving a case
 * aftersales:manage, paying it payments:refund. A Fulfilment member receives parcels and
 * ships replacements but never refunds.
 */
const server = useTestApp();
let owner: TestStaff;
let mug: PreparedLine;
let keys = 0;
const key = () => `permission-${process.pid}-${Date.now()}-${++keys}`;

beforeAll(async () => {
  owner = await createSignedInStaff(server, { permissions: PERMISSIONS, refundLimitMinor: null });
  mug = await afterSaleSku(server, 4_500);
});

const forbidden = { code: 403, msg: 'Your role does not allow this. Ask an Owner for access', data: null };

/** A return of one mug, requested by its buyer. */
async function returnCase() {
  const order = await orderAt(server, owner, { lines: [{ sku: mug, quantity: 1 }], stage: 'received' });
  const created = await order.buyer.call('/v1/after-sale', {
    method: 'POST',
    body: {
      order_id: order.orderId,
      type: 20,
      reason: 'changed_mind',
      lines: [{ order_item_id: order.itemIds[0], quantity: 1 }],
      idempotency_key: key(),
    },
  });
  expect(created.status).toBe(200);
  return { id: created.body.data.id as number, lineId: created.body.data.lines[0].id as number };
}

describe('after-sale permissions', () => {
  it('refuses the queue and the case page to a member without aftersales:read', async () => {
    const { id } = await returnCase();
    const catalogue = await createSignedInStaff(server, { role: 'catalogue' });
    for (const path of ['/v1/admin/after-sales', `/v1/admin/after-sales/${id}`]) {
      const answer = await catalogue.request(path);
      expect(answer.status, path).toBe(403);
      expect(answer.body, path).toEqual(forbidden);
    }
    const chinese = await catalogue.request('/v1/admin/after-sales', { headers: { lang: 'zh-cn' } });
    expect(chinese.body).toEqual({ code: 403, msg: '您的角色无权执行此操作，请联系店主开通权限', data: null });
    const approve = await catalogue.request(`/v1/admin/after-sales/${id}/approve`, { method: 'POST', body: {} });
    expect(approve.body).toEqual(forbidden);
    expect((await caseRow(server, id)).state).toBe('requested');
  });

  it('lets a member with aftersales:read only look, not move', async () => {
    const { id } = await returnCase();
    const reader = await createSignedInStaff(server, { permissions: ['aftersales:read'] });
    expect((await reader.request('/v1/admin/after-sales')).status).toBe(200);
    expect((await reader.request(`/v1/admin/after-sales/${id}`)).status).toBe(200);
    for (const [move, body] of [
      ['approve', {}],
      ['reject', { rejection: 'other', message: 'No.' }],
    ] as const) {
      const answer = await reader.request(`/v1/admin/after-sales/${id}/${move}`, { method: 'POST', body });
      expect(answer.body, move).toEqual(forbidden);
    }
    expect((await caseRow(server, id)).state).toBe('requested');
  });

  it('lets a Fulfilment member approve and receive a return, and refuses them its refund', async () => {
    const { id, lineId } = await returnCase();
    const fulfilment = await createSignedInStaff(server, { role: 'fulfilment' });
    expect((await fulfilment.request('/v1/admin/after-sales')).status).toBe(200);
    const approved = await fulfilment.request(`/v1/admin/after-sales/${id}/approve`, { method: 'POST', body: {} });
    expect(approved.status).toBe(200);
    expect(approved.body.data.state).toBe('awaiting_parcel');
    const received = await fulfilment.request(`/v1/admin/after-sales/${id}/receive`, {
      method: 'POST',
      body: { lines: [{ line_id: lineId, accepted_quantity: 1, damaged_quantity: 0, restock: true }] },
    });
    expect(received.status).toBe(200);
    expect(received.body.data.state).toBe('received');
    const refund = await fulfilment.request(`/v1/admin/after-sales/${id}/refund`, {
      method: 'POST',
      body: { idempotency_key: key() },
    });
    expect(refund.status).toBe(403);
    expect(refund.body).toEqual(forbidden);
    expect((await caseRow(server, id)).state).toBe('received');
    expect(await server.ctx.db.select().from(refunds).where(eq(refunds.afterSaleId, id))).toHaveLength(0);
    // A member who may refund can.
    const paid = await owner.request(`/v1/admin/after-sales/${id}/refund`, {
      method: 'POST',
      body: { idempotency_key: key() },
    });
    expect(paid.status).toBe(200);
    expect(paid.body.data.state).toBe('refunding');
  });

  it('answers a signed-out visitor and a buyer 401 on the desk', async () => {
    const { id } = await returnCase();
    const visitor = await server.request(`/v1/admin/after-sales/${id}`);
    expect(visitor.status).toBe(401);
    const order = await orderAt(server, owner, { lines: [{ sku: mug, quantity: 1 }], stage: 'received' });
    const buyer = await order.buyer.call('/v1/admin/after-sales');
    expect(buyer.status).toBe(401);
  });
});
