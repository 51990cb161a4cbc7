import { and, eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { importRegimes, orderDutyLines, orders, productSkus } from '../../server/db/schema';
import { bumpContentVersion } from '../../server/shared/content-version';
import { germanAddress, makeBuyer, prepareSku, type Buyer } from '../support/buyers';
import { decodedMail, useFakeSmtp } from '../support/mail';
import { createSignedInStaff } from '../support/staff';
import { useTestApp } from '../support/test-server';
import { payAtSandbox } from './admin-orders-fixtures';

/**
 * Duties and import taxes (ADR 0140): quoted on confirm, snapshotted per line by the order,
 * never recomputed, given back with the line they cover, shown in the emails, and the
 * parcel's commercial invoice in the console.
 */
const smtp = useFakeSmtp();
const server = useTestApp(() => ({ SMTP_URL: smtp.url, IOSS_NUMBER: 'IM2760000001' }));

let buyer: Buyer;

beforeAll(async () => {
  buyer = await makeBuyer(server);
  const created = await buyer.call('/v1/useraddress', { method: 'POST', body: germanAddress });
  expect(created.status).toBe(200);
});

/** A T-shirt SKU at CNY 250.00 weighing 200 g: two of them are CNY 500.00 and 400 g. */
async function teeSku(hsCode: string | null = '610910') {
  const sku = await prepareSku(server, { stock: 20, priceMinor: 250_00, weightGrams: 200 });
  const [row] = await server.ctx.db
    .update(productSkus)
    .set({ hsCode, originCountry: 'CN', customsDescription: 'T-shirt, knitted, 100% cotton' })
    .where(eq(productSkus.id, sku.id))
    .returning({ code: productSkus.code });
  return { ...sku, code: row!.code };
}

async function setGermanVat(rateBps: number) {
  await server.ctx.db
    .update(importRegimes)
    .set({ taxRateBps: rateBps })
    .where(and(eq(importRegimes.countryCode, 'DE'), eq(importRegimes.validFrom, new Date('2026-07-01T00:00:00Z'))));
  await bumpContentVersion(server.ctx);
}

afterEach(async () => {
  await setGermanVat(19_00);
});

// Worked by hand, at the seed's rates (EUR 0.1302 per CNY) and Germany's rules from 1 July 2026:
// goods CNY 500.00 = EUR 65.10; shipping (the DE rule: 88.00 for the first 500 g) CNY 88.00 =
// EUR 11.46 (11.4576); within EUR 150, so VAT at sale and the flat EUR 3 for one subheading.
// VAT 19% of (65.10 + 11.46 + 3.00) = 15.12 (15.1164); duties EUR 18.12 = CNY 139.17 (139.1705).
const GOODS = 500_00;
const SHIPPING = 88_00;
const DUTIES = 139_17;
const TOTAL = GOODS + SHIPPING + DUTIES;

describe('POST /v2/order/confirm', () => {
  it('quotes the duties and import taxes of a parcel to Germany as a separate line, paid with the order (DDP)', async () => {
    const sku = await teeSku();
    const { body } = await buyer.call('/v2/order/confirm', {
      method: 'POST',
      body: { items: [{ sku_id: sku.id, quantity: 2 }] },
    });
    expect(body.code).toBe(200);
    expect(body.data).toMatchObject({
      product_price: { amount_minor: GOODS },
      shipping_fee: { amount_minor: SHIPPING },
      total: { amount_minor: TOTAL },
      duties: {
        incoterm: 'DDP',
        estimate_hidden: false,
        currency: 'EUR',
        rate: '0.130200',
        label: 'Duties and import taxes',
        note: 'Paid now: nothing more to pay on delivery',
        charged: { amount_minor: DUTIES },
        estimate: { amount_minor: 0 },
      },
    });
    expect(body.data.duties.rules_version).toMatch(/^DE#\d+@2026-07-01$/);
    expect(body.data.duties.lines).toEqual([
      expect.objectContaining({
        sku_id: sku.id,
        hs_code: '610910',
        origin_country: 'CN',
        customs_value_minor: 76_56,
        duty_minor: 3_00,
        tax_rate_bps: 19_00,
        tax_minor: 15_12,
        fee_minor: 0,
      }),
    ]);
  });

  it('a SKU without an HS code: DDU, no estimate, nothing charged; the console lists the SKU', async () => {
    const sku = await teeSku(null);
    const { body } = await buyer.call('/v2/order/confirm', {
      method: 'POST',
      body: { items: [{ sku_id: sku.id, quantity: 2 }] },
    });
    expect(body.data.total.amount_minor).toBe(GOODS + SHIPPING);
    expect(body.data.duties).toMatchObject({
      incoterm: 'DDU',
      estimate_hidden: true,
      charged: { amount_minor: 0 },
      estimate: null,
      note: 'Duties and import taxes may be payable to the carrier on delivery; we cannot estimate them for this order',
    });
    const fulfilment = await createSignedInStaff(server, { role: 'fulfilment' });
    const listed = await fulfilment.request('/v1/admin/duties/unclassified-skus');
    expect(listed.status).toBe(200);
    expect(listed.body.data.records).toContainEqual(expect.objectContaining({ sku_id: sku.id, sku_code: sku.code }));
    await server.ctx.db.update(productSkus).set({ hsCode: '610910' }).where(eq(productSkus.id, sku.id));
  });
});

describe('POST /v2/order', () => {
  async function placeTwoTees() {
    const sku = await teeSku();
    const placed = await buyer.call('/v2/order', {
      method: 'POST',
      body: { items: [{ sku_id: sku.id, quantity: 2 }] },
    });
    expect(placed.body.code).toBe(200);
    return { sku, order: placed.body.data };
  }

  it('snapshots the duty lines per order line and adds the DDP duties to the total', async () => {
    const { order } = await placeTwoTees();
    expect(order.price).toMatchObject({ duties: { amount_minor: DUTIES }, total: { amount_minor: TOTAL } });
    expect(order.duties).toMatchObject({ incoterm: 'DDP', charged: { amount_minor: DUTIES } });
    const [row] = await server.ctx.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row).toMatchObject({ dutiesMinor: DUTIES, totalMinor: TOTAL });
    const lines = await server.ctx.db.select().from(orderDutyLines).where(eq(orderDutyLines.orderId, order.id));
    expect(lines).toEqual([
      expect.objectContaining({
        incoterm: 'DDP',
        hsCode: '610910',
        currency: 'EUR',
        rateMicros: 130_200,
        dutyMinor: 3_00,
        taxMinor: 15_12,
        chargedMinor: DUTIES,
        estimateMinor: 0,
      }),
    ]);
    expect(lines[0]!.rulesVersion).toMatch(/^DE#\d+@2026-07-01$/);

    const mail = await smtp.waitFor((message) => message.to === buyer.email && message.raw.includes(order.order_no));
    const text = decodedMail(mail.raw);
    expect(text).toContain('Duties and import taxes: CN¥139.17');
    expect(text).toContain('Paid now: nothing more to pay on delivery');
  });

  it('never recomputes them: a rule changed after payment leaves the order as it was, new quotes follow the rule', async () => {
    const { sku, order } = await placeTwoTees();
    await payAtSandbox(server.ctx, { orderId: order.id, userId: buyer.id, totalMinor: TOTAL });
    await setGermanVat(25_00);
    // VAT 25% of 79.56 = 19.89; duties EUR 22.89 = CNY 175.81 (175.8064).
    const quoted = await buyer.call('/v2/order/confirm', {
      method: 'POST',
      body: { items: [{ sku_id: sku.id, quantity: 2 }] },
    });
    expect(quoted.body.data.duties.charged.amount_minor).toBe(175_81);
    const detail = await buyer.call(`/v1/order/${order.id}`);
    expect(detail.body.data).toMatchObject({
      pay_status: 2,
      price: { duties: { amount_minor: DUTIES }, total: { amount_minor: TOTAL } },
      duties: { charged: { amount_minor: DUTIES }, lines: [expect.objectContaining({ tax_minor: 15_12 })] },
    });
  });

  it('a refund of the line gives its duties back, to the minor unit, however it is split', async () => {
    const { order } = await placeTwoTees();
    await payAtSandbox(server.ctx, { orderId: order.id, userId: buyer.id, totalMinor: TOTAL });
    const itemId = (await buyer.call(`/v1/after-sale/order/${order.id}`)).body.data.lines[0].order_item_id as number;
    const estimate = (quantity: number) =>
      buyer.call('/v1/after-sale/estimate', {
        method: 'POST',
        body: { order_id: order.id, type: 10, lines: [{ order_item_id: itemId, quantity }] },
      });
    // The whole line: goods 500.00 + duties 139.17 = 639.17; one tee: floor(639.17 / 2) = 319.58.
    expect((await estimate(2)).body.data.refund.amount_minor).toBe(639_17);
    expect((await estimate(1)).body.data.refund.amount_minor).toBe(319_58);
    const first = await buyer.call('/v1/after-sale', {
      method: 'POST',
      body: {
        order_id: order.id,
        type: 10,
        reason: 'changed_mind',
        lines: [{ order_item_id: itemId, quantity: 1 }],
        idempotency_key: `duties-refund-${order.id}`,
      },
    });
    expect(first.body.code).toBe(200);
    // The second tee is worth the rest: 639.17 - 319.58 = 319.59.
    expect((await estimate(1)).body.data.refund.amount_minor).toBe(319_59);
  });
});

describe('GET /v1/admin/orders/{id}/commercial-invoice', () => {
  it('prints HS code, origin, description and values, and the IOSS number of a parcel whose VAT was collected at sale', async () => {
    const sku = await teeSku();
    const placed = await buyer.call('/v2/order', {
      method: 'POST',
      body: { items: [{ sku_id: sku.id, quantity: 2 }] },
    });
    const orderId = placed.body.data.id as number;
    for (const role of ['fulfilment', 'support', 'manager'] as const) {
      const member = await createSignedInStaff(server, { role });
      const answer = await member.request(`/v1/admin/orders/${orderId}/commercial-invoice`);
      expect(answer.status, role).toBe(200);
      expect(answer.body.data).toMatchObject({
        order_no: placed.body.data.order_no,
        currency: 'CNY',
        incoterm: 'DDP',
        registration: { scheme: 'IOSS', number: 'IM2760000001' },
        consignee: { name: 'Erika Mustermann', country_code: 'DE' },
        lines: [
          {
            sku_code: sku.code,
            description: 'T-shirt, knitted, 100% cotton',
            hs_code: '610910',
            origin_country: 'CN',
            quantity: 2,
            unit_value_minor: 250_00,
            unit_value: '250.00',
            value_minor: 500_00,
            value: '500.00',
            weight_grams: 400,
          },
        ],
        goods: '500.00',
        shipping: '88.00',
        duties: '139.17',
        total: '727.17',
      });
    }
    const catalogue = await createSignedInStaff(server, { role: 'catalogue' });
    expect((await catalogue.request(`/v1/admin/orders/${orderId}/commercial-invoice`)).status).toBe(403);
    expect((await buyer.call(`/v1/admin/orders/${orderId}/commercial-invoice`)).status).toBe(401);
  });
});
