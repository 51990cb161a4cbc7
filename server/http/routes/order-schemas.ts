import { z } from 'zod';
import { addressSchema } from './address.routes';

/** Response shapes shared by the checkout and order endpoints (serialization and OpenAPI). */
export const amountSchema = z.object({
  amount_minor: z.number().int().describe('settlement currency, minor units'),
  amount: z.string(),
  display_amount_minor: z.number().int().describe('display currency at the rate shown (frozen on orders)'),
  display_amount: z.string(),
});

const lineSchema = z.object({
  sku_id: z.number().int(),
  product_id: z.number().int(),
  name: z.string(),
  properties: z.string(),
  image: z.string().nullable(),
  quantity: z.number().int(),
  unit_price: amountSchema,
  line_total: amountSchema,
});

export const confirmSchema = z.object({
  lines: z.array(lineSchema),
  address: addressSchema.nullable(),
  needs_address: z.boolean(),
  currency: z.string(),
  display_currency: z.string(),
  exchange_rate: z.string().describe('display units per settlement unit'),
  weight_grams: z.number().int(),
  coupon: z.object({ code: z.string(), discount: amountSchema }).nullable(),
  product_price: amountSchema,
  shipping_fee: amountSchema,
  discount: amountSchema,
  total: amountSchema,
  labels: z.object({ product_price: z.string(), shipping_fee: z.string(), discount: z.string(), total: z.string() }),
});

export const orderSummarySchema = z.object({
  id: z.number().int(),
  order_no: z.string(),
  status: z.number().int(),
  status_text: z.string(),
  pay_status: z.number().int(),
  pay_status_text: z.string(),
  created_at: z.string(),
  payment_deadline: z.string().nullable(),
  currency: z.string(),
  display_currency: z.string(),
  total: amountSchema,
  item_count: z.number().int(),
  items: z.array(lineSchema),
  can_cancel: z.boolean(),
  can_confirm: z.boolean(),
});

const shipmentSchema = z.object({
  carrier_code: z.string(),
  carrier_name: z.string(),
  tracking_no: z.string(),
  tracking_url: z.string(),
  shipped_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
});

export const orderDetailSchema = orderSummarySchema.extend({
  contact: z.object({ name: z.string(), phone: z.string() }),
  country_code: z.string(),
  country: z.string(),
  region: z.string(),
  address: z.string(),
  postal_code: z.string(),
  price: z.object({ product_price: amountSchema, shipping_fee: amountSchema, discount: amountSchema, total: amountSchema }),
  exchange_rate: z.string(),
  coupon_code: z.string().nullable(),
  notes: z.string(),
  paid_at: z.string().nullable(),
  history: z.array(
    z.object({ status: z.number().int(), status_text: z.string(), pay_status: z.number().int(), actor: z.string(), note: z.string(), at: z.string() }),
  ),
  shipment: shipmentSchema.nullable(),
});

export const orderPageSchema = z.object({
  records: z.array(orderSummarySchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});

export const expressSchema = shipmentSchema.extend({
  status: z.number().int(),
  events: z.array(z.object({ at: z.string(), description: z.string(), kind: z.string() })).describe('newest first'),
});

export const orderCountsSchema = z.object({
  all: z.number().int(),
  pending_payment: z.number().int(),
  pending_shipment: z.number().int(),
  pending_receipt: z.number().int(),
  after_sales: z.number().int(),
  by_status: z.record(z.string(), z.number().int()),
});
