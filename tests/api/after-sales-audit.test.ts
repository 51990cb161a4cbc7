import { and, asc, eq, like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../server/db/schema';
import { PERMISSIONS } from '../../server/domains/staff/permissions';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { useTestApp } from '../support/test-server';
import { afterSaleSku, caseRow, orderAt, type PreparedLine } from './after-sales-fixtures';

/**
 * Every operator move on a case leaves an audit event on its order naming the case (ADR 0130),
 * and the gateway's yes one by the after-sales job; the console's order timeline shows them.
 */
const server = useTestApp();
let owner: TestStaff;
let mug: PreparedLine;
let shirt: PreparedLine;
let keys = 0;
const key = () => `audit-${process.pid}-${Date.now()}-${++keys}`;

beforeAll(async () => {
  owner = await createSignedInStaff(server, { permissions: PERMISSIONS, refundLimitMinor: null });
  mug = await afterSaleSku(server, 4_500);
  shirt = await afterSaleSku(server, 12_000);
});

describe('after-sale audit', () => {
  it('records approved, received, refunding, refunded, rejected and exchange_shipped with the case number', async () => {
    const order = await orderAt(server, owner, {
      lines: [
        { sku: mug, quantity: 2 },
        { sku: shirt, quantity: 1 },
      ],
      stage: 'received',
    });
    const [mugLine, shirtLine] = order.itemIds as [number, number];
    const ask = async (type: number, line: Record<string, number>) => {
      const created = await order.buyer.call('/v1/after-sale', {
        method: 'POST',
        body: { order_id: order.orderId, type, reason: 'size_fit', lines: [line], idempotency_key: key() },
      });
      expect(created.status, created.text).toBe(200);
      return created.body.data as { id: number; case_no: string; lines: Array<{ id: number }> };
    };
    const move = async (id: number, path: string, body: Record<string, unknown>) => {
      const answer = await owner.request(`/v1/admin/after-sales/${id}/${path}`, { method: 'POST', body });
      expect(answer.status, `${path}: ${answer.text}`).toBe(200);
    };
    const received = (line: { id: number }) => ({
      lines: [{ line_id: line.id, accepted_quantity: 1, damaged_quantity: 0, restock: true }],
    });

    const ret = await ask(20, { order_item_id: mugLine, quantity: 1 });
    const refundOnly = await ask(10, { order_item_id: mugLine, quantity: 1 });
    const options = await order.buyer.call(`/v1/after-sale/order/${order.orderId}`);
    const wanted = options.body.data.lines[1].exchange_options[0].sku_id as number;
    const exchange = await ask(30, { order_item_id: shirtLine, quantity: 1, wanted_sku_id: wanted });
    expect([ret.case_no, refundOnly.case_no, exchange.case_no]).toEqual([
      `${order.orderNo}-1`,
      `${order.orderNo}-2`,
      `${order.orderNo}-3`,
    ]);

    await move(ret.id, 'approve', {});
    await move(ret.id, 'receive', received(ret.lines[0]!));
    await move(ret.id, 'refund', { idempotency_key: key() });
    await expect.poll(async () => (await caseRow(server, ret.id)).state, { timeout: 15_000 }).toBe('completed');
    await move(refundOnly.id, 'reject', { rejection: 'not_eligible', message: 'Opened and used.' });
    await move(exchange.id, 'approve', {});
    await move(exchange.id, 'receive', received(exchange.lines[0]!));
    await move(exchange.id, 'ship-exchange', { carrier_code: 'shunfeng', tracking_no: 'SF5550001' });

    const events = await server.ctx.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.entityType, 'order'),
          eq(auditEvents.entityId, String(order.orderId)),
          like(auditEvents.action, 'after_sale.%'),
        ),
      )
      .orderBy(asc(auditEvents.at), asc(auditEvents.id));
    const caseNo = (event: (typeof events)[number]) => {
      const change = event.changes.case_no as { before?: unknown; after?: unknown } | undefined;
      return change?.after ?? change?.before;
    };
    expect(events.map((event) => [event.action, caseNo(event), event.actorLabel])).toEqual([
      ['after_sale.approved', `${order.orderNo}-1`, owner.email],
      ['after_sale.received', `${order.orderNo}-1`, owner.email],
      ['after_sale.refunding', `${order.orderNo}-1`, owner.email],
      ['after_sale.refunded', `${order.orderNo}-1`, 'after-sales'],
      ['after_sale.rejected', `${order.orderNo}-2`, owner.email],
      ['after_sale.approved', `${order.orderNo}-3`, owner.email],
      ['after_sale.received', `${order.orderNo}-3`, owner.email],
      ['after_sale.exchange_shipped', `${order.orderNo}-3`, owner.email],
    ]);
    expect(events[0]!.changes.state).toEqual({ before: 'requested', after: 'awaiting_parcel' });
    expect(events[4]!.changes.rejection).toEqual({ after: 'not_eligible' });
    expect(events[7]!.changes.tracking_no).toEqual({ after: 'SF5550001' });

    const page = await owner.request(`/v1/admin/orders/${order.orderId}`);
    const timeline = (page.body.data.timeline as Array<{ kind: string; title: string; detail: string; actor: string }>)
      .filter((entry) => entry.kind === 'audit' && entry.title.startsWith('after_sale.'))
      .map((entry) => [entry.title, /case_no: "([^"]+)"/.exec(entry.detail)?.[1], entry.actor]);
    expect(timeline).toEqual([
      ['after_sale.approved', `${order.orderNo}-1`, owner.email],
      ['after_sale.received', `${order.orderNo}-1`, owner.email],
      ['after_sale.refunding', `${order.orderNo}-1`, owner.email],
      ['after_sale.refunded', `${order.orderNo}-1`, 'after-sales'],
      ['after_sale.rejected', `${order.orderNo}-2`, owner.email],
      ['after_sale.approved', `${order.orderNo}-3`, owner.email],
      ['after_sale.received', `${order.orderNo}-3`, owner.email],
      ['after_sale.exchange_shipped', `${order.orderNo}-3`, owner.email],
    ]);
  });
});
