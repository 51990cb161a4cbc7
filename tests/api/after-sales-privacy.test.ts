import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { afterSaleHistory } from '../../server/db/schema';
import { PERMISSIONS } from '../../server/domains/staff/permissions';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { useTestApp } from '../support/test-server';
import { afterSaleSku, caseRow, evidencePhoto, orderAt, type PreparedLine } from './after-sales-fixtures';

/** A buyer's after-sale cases in their data export, and what erasure leaves of them. */
const server = useTestApp();
let owner: TestStaff;
let scarf: PreparedLine;

beforeAll(async () => {
  owner = await createSignedInStaff(server, { permissions: PERMISSIONS, refundLimitMinor: null });
  scarf = await afterSaleSku(server, 8_800);
});

describe('after-sales and the customer’s data', () => {
  it('exports the cases with what the buyer wrote; erasure keeps the case and its amounts, not the words or photos', async () => {
    const order = await orderAt(server, owner, { lines: [{ sku: scarf, quantity: 1 }], stage: 'received' });
    const photo = await evidencePhoto(order.buyer);
    const created = await order.buyer.call('/v1/after-sale', {
      method: 'POST',
      body: {
        order_id: order.orderId,
        type: 10,
        reason: 'not_as_described',
        description: 'The colour is grey, not blue as in the pictures',
        photos: [photo],
        lines: [{ order_item_id: order.itemIds[0], quantity: 1 }],
        idempotency_key: `privacy-${Date.now()}`,
      },
    });
    const caseId = created.body.data.id as number;
    await owner.request(`/v1/admin/after-sales/${caseId}/reject`, {
      method: 'POST',
      body: { rejection: 'no_evidence', message: 'The photo shows a blue scarf.' },
    });
    await order.buyer.call(`/v1/after-sale/${caseId}/appeal`, {
      method: 'PUT',
      body: { message: 'Look at it in daylight: it is grey, my name is Anna Schmidt.' },
    });
    await owner.request(`/v1/admin/after-sales/${caseId}/reject`, {
      method: 'POST',
      body: { rejection: 'no_evidence', message: 'Still blue.' },
    });

    const exported = await owner.request(`/v1/admin/customers/${order.buyer.id}/export`);
    expect(exported.status).toBe(200);
    expect(exported.body.after_sales).toHaveLength(1);
    expect(exported.body.after_sales[0]).toMatchObject({
      case_no: `${order.orderNo}-1`,
      description: 'The colour is grey, not blue as in the pictures',
      photos: [photo],
      estimate: { amount_minor: 8_800 },
    });

    const erased = await owner.request(`/v1/admin/customers/${order.buyer.id}/erase`, {
      method: 'POST',
      body: { confirm_email: order.buyer.email },
    });
    expect(erased.status).toBe(200);
    expect(await caseRow(server, caseId)).toMatchObject({
      description: '[erased]',
      photos: [],
      estimateMinor: 8_800,
      type: 10,
    });
    const history = await server.ctx.db.select().from(afterSaleHistory).where(eq(afterSaleHistory.afterSaleId, caseId));
    expect(history.filter((entry) => entry.actor === 'buyer').map((entry) => entry.message)).toEqual([
      null,
      '[erased]',
    ]);
    // The shop's own words stay: they are the record of the decision.
    expect(history.filter((entry) => entry.actor === 'operator').map((entry) => entry.message)).toEqual([
      'The photo shows a blue scarf.',
      'Still blue.',
    ]);
    const fetched = await owner.request(photo);
    expect(fetched.status).toBe(404);
  });
});
