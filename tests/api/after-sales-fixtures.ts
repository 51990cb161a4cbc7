import { eq } from 'drizzle-orm';
import { afterSales, orders, products, productSkus, refunds } from '../../server/db/schema';
import { makeShopper, prepareSku, type Buyer } from '../support/buyers';
import type { TestStaff } from '../support/staff';
import type { TestApp } from '../support/test-server';
import { payAtSandbox } from './admin-orders-fixtures';

/** Test orders for after-sales: placed through the API, paid at the sandbox gateway, shipped and received. */

export interface PreparedLine {
  skuId: number;
  productId: number;
  priceMinor: number;
}

/**
 * A listed SKU at a known price with plenty of stock, and whether its product is sold as final sale.
 * It has no HS code, so an order of it abroad charges no duties and the cases' figures are the
 * goods' (a refund giving duties back is tests/api/duties.test.ts's).
 */
export async function afterSaleSku(
  server: TestApp,
  priceMinor: number,
  options: { finalSale?: boolean } = {},
): Promise<PreparedLine> {
  const sku = await prepareSku(server, { stock: 100, priceMinor });
  await server.ctx.db
    .update(products)
    .set({ finalSale: options.finalSale ?? false })
    .where(eq(products.id, sku.productId));
  await server.ctx.db.update(productSkus).set({ hsCode: null }).where(eq(productSkus.id, sku.id));
  return { skuId: sku.id, productId: sku.productId, priceMinor };
}

export interface OrderFixture {
  buyer: Buyer & { addressId: number };
  orderId: number;
  orderNo: string;
  /** Order line ids, in the order the lines were given. */
  itemIds: number[];
  totalMinor: number;
}

/**
 * An order of `lines` by a new buyer (an address in `address`), paid; then, as `stage` says,
 * shipped by `owner` and received by the buyer (`received`), or left to ship (`paid`).
 */
export async function orderAt(
  server: TestApp,
  owner: TestStaff,
  input: {
    lines: ReadonlyArray<{ sku: PreparedLine; quantity: number }>;
    stage: 'paid' | 'shipped' | 'received';
    address?: Record<string, unknown>;
  },
): Promise<OrderFixture> {
  const buyer = await makeShopper(server, input.address);
  const placed = await buyer.call('/v2/order', {
    method: 'POST',
    body: {
      items: input.lines.map((line) => ({ sku_id: line.sku.skuId, quantity: line.quantity })),
      address_id: buyer.addressId,
    },
  });
  if (placed.status !== 200) throw new Error(`order refused: ${placed.text}`);
  const order = placed.body.data as { id: number; order_no: string; total: { amount_minor: number } };
  await payAtSandbox(server.ctx, { orderId: order.id, userId: buyer.id, totalMinor: order.total.amount_minor });
  if (input.stage !== 'paid') {
    const shipped = await owner.request(`/v1/admin/orders/${order.id}/ship`, {
      method: 'POST',
      body: { carrier_code: 'shunfeng', tracking_no: `SF${order.id}0001` },
    });
    if (shipped.status !== 200) throw new Error(`ship refused: ${shipped.text}`);
  }
  if (input.stage === 'received') {
    const confirmed = await buyer.call(`/v1/order/confirm/${order.id}`, { method: 'PUT' });
    if (confirmed.status !== 200) throw new Error(`confirm refused: ${confirmed.text}`);
  }
  const detail = await buyer.call(`/v1/after-sale/order/${order.id}`);
  return {
    buyer,
    orderId: order.id,
    orderNo: order.order_no,
    itemIds: (detail.body.data.lines as Array<{ order_item_id: number }>).map((line) => line.order_item_id),
    totalMinor: order.total.amount_minor,
  };
}

/** Moves an order's delivery back `days` days (the window counts from it). */
export async function deliveredDaysAgo(server: TestApp, orderId: number, days: number): Promise<void> {
  const at = new Date(Date.now() - days * 24 * 60 * 60 * 1000);
  await server.ctx.db.update(orders).set({ deliveredAt: at, receivedAt: at }).where(eq(orders.id, orderId));
}

/** A small real PNG (1x1 px, red). */
export const RED_PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

/** Uploads an evidence photo as `buyer` and answers its private address. */
export async function evidencePhoto(buyer: Buyer): Promise<string> {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(RED_PIXEL_PNG)], { type: 'image/png' }), 'evidence.png');
  const encoded = new Request('http://shop.test/', { method: 'POST', body: form });
  const uploaded = await buyer.call('/v1/upload?purpose=evidence', {
    method: 'POST',
    rawBody: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type')! },
  });
  if (uploaded.status !== 200) throw new Error(`upload refused: ${uploaded.text}`);
  return uploaded.body.data as string;
}

export async function caseRow(server: TestApp, id: number) {
  const [row] = await server.ctx.db.select().from(afterSales).where(eq(afterSales.id, id));
  return row!;
}

export async function orderStatus(server: TestApp, orderId: number): Promise<number> {
  const [row] = await server.ctx.db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId));
  return row!.status;
}

export async function caseRefunds(server: TestApp, caseId: number) {
  return server.ctx.db.select().from(refunds).where(eq(refunds.afterSaleId, caseId));
}
