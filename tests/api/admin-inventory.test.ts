import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents, inventoryAdjustments, orderItems, productSkus } from '../../server/db/schema';
import { makeShopper, prepareSku, stockOf } from '../support/buyers';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { useTestApp } from '../support/test-server';

/** Inventory in the admin API: adjustments with a reason, their history, thresholds (docs/console.md). */
const server = useTestApp();

let catalogue: TestStaff | undefined;
async function editor(): Promise<TestStaff> {
  catalogue ??= await createSignedInStaff(server, { role: 'catalogue' });
  return catalogue;
}

async function historyOf(skuId: number) {
  return server.ctx.db
    .select({ delta: inventoryAdjustments.delta, stockAfter: inventoryAdjustments.stockAfter })
    .from(inventoryAdjustments)
    .where(eq(inventoryAdjustments.skuId, skuId))
    .orderBy(inventoryAdjustments.id);
}

async function auditOf(skuId: number) {
  return server.ctx.db
    .select({ action: auditEvents.action, changes: auditEvents.changes })
    .from(auditEvents)
    .where(and(eq(auditEvents.entityType, 'sku'), eq(auditEvents.entityId, String(skuId))))
    .orderBy(auditEvents.id);
}

function adjust(staff: TestStaff, skuId: number, body: Record<string, unknown>, lang = 'en') {
  return staff.request(`/v1/admin/inventory/${skuId}/adjustments`, { method: 'POST', body, headers: { lang } });
}

describe('who may change stock', () => {
  it('refuses a Fulfilment or Support member every inventory endpoint, and changes nothing', async () => {
    const sku = await prepareSku(server, { stock: 7 });
    for (const role of ['fulfilment', 'support'] as const) {
      const member = await createSignedInStaff(server, { role });
      const calls: Array<[string, string, unknown?]> = [
        ['GET', '/v1/admin/inventory'],
        ['GET', '/v1/admin/inventory/low-stock'],
        ['GET', `/v1/admin/inventory/${sku.id}/adjustments`],
        ['POST', `/v1/admin/inventory/${sku.id}/adjustments`, { delta: 5, reason: 'received' }],
        ['PUT', `/v1/admin/inventory/${sku.id}/threshold`, { low_stock_threshold: 3 }],
      ];
      for (const [method, path, body] of calls) {
        const answer = await member.request(path, { method, body });
        expect([role, method, path, answer.status]).toEqual([role, method, path, 403]);
      }
    }
    expect(await stockOf(server, sku.id)).toBe(7);
    expect(await historyOf(sku.id)).toEqual([]);
    expect(await auditOf(sku.id)).toEqual([]);
  });
});

describe('adjusting stock', () => {
  it('adds and takes stock with a reason, keeps the history and the audit event, and retires the product page', async () => {
    const staff = await editor();
    const sku = await prepareSku(server, { stock: 4 });
    const page = await server.request(`/v1/good/${sku.productId}`, { headers: { lang: 'en' } });
    const stockOnPage = (answer: typeof page) =>
      (answer.body as { data: { good_sku: Array<{ id: number; stock: number }> } }).data.good_sku.find(
        (row) => row.id === sku.id,
      )?.stock;
    expect(stockOnPage(page)).toBe(4);

    const received = await adjust(staff, sku.id, { delta: 6, reason: 'received', note: 'PO 1187' });
    expect(received.status, received.text).toBe(200);
    expect(received.body.data.sku).toMatchObject({ sku_id: sku.id, stock: 10, low_stock_threshold: null, low: false });
    expect(received.body.data.adjustment).toMatchObject({
      delta: 6,
      stock_after: 10,
      reason: 'received',
      note: 'PO 1187',
      by: staff.email,
    });
    const damaged = await adjust(staff, sku.id, { delta: -3, reason: 'damaged' });
    expect(damaged.body.data.sku.stock).toBe(7);

    expect(stockOnPage(await server.request(`/v1/good/${sku.productId}`, { headers: { lang: 'en' } }))).toBe(7);
    expect(await historyOf(sku.id)).toEqual([
      { delta: 6, stockAfter: 10 },
      { delta: -3, stockAfter: 7 },
    ]);
    expect(await auditOf(sku.id)).toEqual([
      {
        action: 'inventory.adjusted',
        changes: {
          stock: { before: 4, after: 10 },
          delta: { after: 6 },
          reason: { after: 'received' },
          note: { after: 'PO 1187' },
        },
      },
      {
        action: 'inventory.adjusted',
        changes: {
          stock: { before: 10, after: 7 },
          delta: { after: -3 },
          reason: { after: 'damaged' },
          note: { after: '' },
        },
      },
    ]);

    const history = await staff.request(`/v1/admin/inventory/${sku.id}/adjustments`);
    expect(
      history.body.data.adjustments.map((row: { delta: number; reason: string }) => [row.delta, row.reason]),
    ).toEqual([
      [-3, 'damaged'],
      [6, 'received'],
    ]);
  });

  it('never goes below zero: refuses with what is in stock, in the member language, and writes nothing', async () => {
    const staff = await editor();
    const sku = await prepareSku(server, { stock: 3 });
    const refused = await adjust(staff, sku.id, { delta: -4, reason: 'counted' });
    expect([refused.status, refused.body.msg]).toEqual([409, 'Stock cannot go below zero: only 3 in stock']);
    const refusedZh = await adjust(staff, sku.id, { delta: -4, reason: 'counted' }, 'zh-cn');
    expect(refusedZh.body.msg).toBe('库存不能低于零：目前只有 3 件');
    expect(await stockOf(server, sku.id)).toBe(3);
    expect(await historyOf(sku.id)).toEqual([]);
    expect(await auditOf(sku.id)).toEqual([]);

    const toZero = await adjust(staff, sku.id, { delta: -3, reason: 'counted' });
    expect(toZero.body.data.sku.stock).toBe(0);
  });

  it('answers bad input with a clear message naming the field', async () => {
    const staff = await editor();
    const sku = await prepareSku(server, { stock: 3 });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ delta: 0, reason: 'received' }, 'Enter a change other than 0'],
      [{ delta: 1.5, reason: 'received' }, 'Change must be a whole number'],
      [{ delta: 2_000_000, reason: 'received' }, 'Change must be at most 1000000'],
      [{ delta: 2, reason: 'stolen' }, 'Reason must be one of received, counted, damaged, returned, other'],
      [{ delta: 2, reason: 'other' }, 'Say what happened in the note when the reason is "Other"'],
      [{ reason: 'received' }, 'Change is required'],
    ];
    for (const [body, message] of cases) {
      const answer = await adjust(staff, sku.id, body);
      expect([body, answer.status, answer.body.msg]).toEqual([body, 400, message]);
    }
    const missing = await adjust(staff, 999999, { delta: 1, reason: 'received' });
    expect([missing.status, missing.body.msg]).toEqual([404, 'There is no such SKU']);
    expect(await stockOf(server, sku.id)).toBe(3);
    expect(await historyOf(sku.id)).toEqual([]);
  });

  it('is safe beside orders placed at the same moment: the final stock adds up and nothing is oversold', async () => {
    const staff = await editor();
    const sku = await prepareSku(server, { stock: 10 });
    const shoppers = await Promise.all(Array.from({ length: 16 }, () => makeShopper(server)));
    const deltas = [-4, 6, -3, 2, -5, 4, -6, 3];
    const [orderAnswers, adjustmentAnswers] = await Promise.all([
      Promise.all(
        shoppers.map((shopper) =>
          shopper.call('/v2/order', { method: 'POST', body: { items: [{ sku_id: sku.id, quantity: 1 }] } }),
        ),
      ),
      Promise.all(deltas.map((delta) => adjust(staff, sku.id, { delta, reason: delta > 0 ? 'received' : 'counted' }))),
    ]);
    expect([...orderAnswers, ...adjustmentAnswers].filter((answer) => answer.status >= 500)).toEqual([]);
    // Each refusal is the shop's answer, not a fault: sold out, or not that much to take away.
    for (const answer of orderAnswers) expect([200, 409]).toContain(answer.status);
    for (const answer of adjustmentAnswers) expect([200, 409]).toContain(answer.status);

    const ordered = orderAnswers.filter((answer) => answer.status === 200).length;
    const applied = deltas.filter((_, index) => adjustmentAnswers[index]!.status === 200);
    const finalStock = await stockOf(server, sku.id);
    expect(finalStock).toBe(10 + applied.reduce((sum, delta) => sum + delta, 0) - ordered);
    expect(finalStock).toBeGreaterThanOrEqual(0);
    const sold = await server.ctx.db.select().from(orderItems).where(eq(orderItems.skuId, sku.id));
    expect(sold.reduce((sum, line) => sum + line.quantity, 0)).toBe(ordered);
    // Every positive adjustment went through (nothing can refuse adding stock).
    expect(applied.filter((delta) => delta > 0)).toEqual([6, 2, 4, 3]);
    // The history holds exactly the applied adjustments, each leaving a stock that was never negative.
    const history = await historyOf(sku.id);
    expect(history.map((row) => row.delta).sort((a, b) => a - b)).toEqual([...applied].sort((a, b) => a - b));
    for (const row of history) expect(row.stockAfter).toBeGreaterThanOrEqual(0);
  });
});

describe('low-stock thresholds', () => {
  it("flags a SKU at or under its own threshold, else the shop's (5), on the inventory and its alerts", async () => {
    const staff = await editor();
    const sku = await prepareSku(server, { stock: 8 });
    const [row] = await server.ctx.db.select().from(productSkus).where(eq(productSkus.id, sku.id));
    const watch = async (threshold: number | null) =>
      staff.request(`/v1/admin/inventory/${sku.id}/threshold`, {
        method: 'PUT',
        body: { low_stock_threshold: threshold },
      });
    const lowListed = async () =>
      (await staff.request(`/v1/admin/inventory?low=true&q=${encodeURIComponent(row!.code)}`)).body.data.records.map(
        (record: { sku_id: number }) => record.sku_id,
      );

    expect(await lowListed()).toEqual([]);
    expect((await watch(10)).body.data).toMatchObject({
      sku_id: sku.id,
      code: row!.code,
      stock: 8,
      low_stock_threshold: 10,
      alert_at: 10,
      low: true,
    });
    expect(await lowListed()).toEqual([sku.id]);

    await adjust(staff, sku.id, { delta: 3, reason: 'returned' });
    expect(await lowListed()).toEqual([]);
    await watch(null);
    const found = await staff.request(`/v1/admin/inventory?q=${encodeURIComponent(row!.code)}`);
    expect(found.body.data.records.find((record: { sku_id: number }) => record.sku_id === sku.id)).toMatchObject({
      stock: 11,
      low_stock_threshold: null,
      alert_at: 5,
      low: false,
    });
    // Without a threshold of its own, the shop's: 5 or fewer.
    await adjust(staff, sku.id, { delta: -6, reason: 'damaged' });
    expect(await lowListed()).toEqual([sku.id]);
    expect((await auditOf(sku.id)).filter((event) => event.action === 'inventory.threshold_set')).toEqual([
      { action: 'inventory.threshold_set', changes: { low_stock_threshold: { before: null, after: 10 } } },
      { action: 'inventory.threshold_set', changes: { low_stock_threshold: { before: 10, after: null } } },
    ]);

    const negative = await watch(-1);
    expect([negative.status, negative.body.msg]).toEqual([400, 'Low-stock threshold must be at least 0']);
  });

  it("counts on the console home by the same rule: a SKU's own threshold, else the shop's", async () => {
    const staff = await editor();
    const home = await createSignedInStaff(server, { role: 'fulfilment' });
    const lowCount = async () => (await home.request('/v1/admin/dashboard')).body.data.low_stock.count as number;
    const watched = await prepareSku(server, { stock: 8 });
    const quiet = await prepareSku(server, { stock: 4 });
    const before = await lowCount();

    // 8 in stock is not low by the shop's 5, but is by its own 10.
    await staff.request(`/v1/admin/inventory/${watched.id}/threshold`, {
      method: 'PUT',
      body: { low_stock_threshold: 10 },
    });
    expect(await lowCount()).toBe(before + 1);
    // 4 in stock is low by the shop's 5, not by its own 3.
    await staff.request(`/v1/admin/inventory/${quiet.id}/threshold`, {
      method: 'PUT',
      body: { low_stock_threshold: 3 },
    });
    expect(await lowCount()).toBe(before);

    const listed = (await home.request('/v1/admin/dashboard')).body.data.low_stock.skus as Array<{
      sku_id: number;
      stock: number;
    }>;
    const rows = await server.ctx.db.select().from(productSkus);
    for (const entry of listed) {
      const sku = rows.find((candidate) => candidate.id === entry.sku_id)!;
      expect(entry.stock).toBeLessThanOrEqual(sku.lowStockThreshold ?? 5);
    }
    const alerts = (await staff.request('/v1/admin/inventory/low-stock')).body.data.records as Array<{
      sku_id: number;
    }>;
    expect(alerts.map((alert) => alert.sku_id)).not.toContain(quiet.id);
  });
});
