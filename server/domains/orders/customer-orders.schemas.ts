import { z } from 'zod';
import { currencyCode } from '../../shared/money.schemas';

/** A customer's orders as the console's customer pages and data exports show them. */

/** One row of a customer's recent orders in the console. */
export const customerOrderRow = z.object({
  id: z.number().int(),
  order_no: z.string(),
  status: z.number().int().describe('SPEC section 4 order status'),
  pay_status: z.number().int().describe('1 pending, 2 paid, 3 cancelled'),
  total_minor: z.number().int(),
  currency: currencyCode,
  item_count: z.number().int(),
  created_at: z.string(),
});
export type CustomerOrderRow = z.infer<typeof customerOrderRow>;

/** What the shop has earned from a customer: paid orders in the settlement currency. */
export const customerSpending = z.object({
  order_count: z.number().int().describe('every order the customer placed, whatever its status'),
  total_spent_minor: z
    .number()
    .int()
    .describe('sum of paid orders in the settlement currency, minor units (refunds not subtracted)'),
  currency: currencyCode.describe('the settlement currency'),
  last_order_at: z.string().nullable(),
});
export type CustomerSpending = z.infer<typeof customerSpending>;

/** An order in a customer's data export: amounts, lines, the address it went to and its payments. */
export const exportedOrder = z.object({
  order_no: z.string(),
  status: z.number().int(),
  pay_status: z.number().int(),
  created_at: z.string(),
  currency: currencyCode,
  goods_amount_minor: z.number().int(),
  shipping_fee_minor: z.number().int(),
  discount_minor: z.number().int(),
  total_minor: z.number().int(),
  coupon_code: z.string().nullable(),
  notes: z.string(),
  shipping_address: z.object({
    country_code: z.string(),
    province: z.string(),
    city: z.string(),
    detail: z.string(),
    postal_code: z.string(),
    contact_name: z.string(),
    contact_phone: z.string(),
  }),
  carrier_code: z.string().nullable(),
  tracking_no: z.string().nullable(),
  paid_at: z.string().nullable(),
  shipped_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  lines: z.array(
    z.object({
      sku_code: z.string(),
      product_name: z.string(),
      properties: z.string(),
      quantity: z.number().int(),
      unit_price_minor: z.number().int(),
      line_total_minor: z.number().int(),
    }),
  ),
  payments: z.array(
    z.object({
      provider: z.string(),
      status: z.string(),
      amount_minor: z.number().int(),
      currency: currencyCode,
      created_at: z.string(),
      paid_at: z.string().nullable(),
      refunded_at: z.string().nullable(),
    }),
  ),
});
export type ExportedOrder = z.infer<typeof exportedOrder>;
