import { z } from 'zod';
import { rowIdFromText } from '../../shared/ids.schemas';
import { amountViewSchema, currencyCode } from '../../shared/money.schemas';
import { PAYMENT_METHODS } from '../../shared/payment-methods';
import { dutiesView } from '../duties/duties.schemas';

/** The My Orders tabs: All, Pending Payment, Pending Shipment, Pending Delivery, After-Sales. */
export const ORDER_TABS = ['all', '1', '10', '20', 'after_sales'] as const;

export const orderListQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(10),
  status: z.enum(ORDER_TABS).default('all'),
});
export type OrderListQuery = z.infer<typeof orderListQuery>;

export const orderIdParams = z.object({ id: rowIdFromText });

// Answers of the order endpoints (and of the order pages, which call the same functions).

/** One line of an order or of a priced checkout. */
export const orderLine = z.object({
  sku_id: z.number().int(),
  product_id: z.number().int(),
  name: z.string(),
  properties: z.string().describe("'Colour: Sage / Size: M'"),
  image: z.string().nullable(),
  quantity: z.number().int(),
  unit_price: amountViewSchema,
  line_total: amountViewSchema,
});
export type OrderLine = z.infer<typeof orderLine>;

export const orderSummary = z.object({
  id: z.number().int(),
  order_no: z.string(),
  status: z.number().int().describe('SPEC section 4: 1 pending payment, 10 pending shipment, 20 pending receipt ...'),
  status_text: z.string(),
  pay_status: z.number().int().describe('1 pending, 2 paid, 3 cancelled'),
  pay_status_text: z.string(),
  created_at: z.string(),
  payment_deadline: z.string().nullable().describe('set while the order awaits payment'),
  currency: currencyCode,
  display_currency: currencyCode,
  total: amountViewSchema,
  item_count: z.number().int(),
  items: z.array(orderLine),
  can_cancel: z.boolean(),
  can_confirm: z.boolean(),
});
export type OrderSummary = z.infer<typeof orderSummary>;

const shipment = z.object({
  carrier_code: z.string(),
  carrier_name: z.string(),
  tracking_no: z.string(),
  tracking_url: z.string(),
  shipped_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
});
export type ShipmentView = z.infer<typeof shipment>;

export const orderDetail = orderSummary.extend({
  contact: z.object({ name: z.string(), phone: z.string() }),
  country_code: z.string(),
  country: z.string(),
  region: z.string(),
  address: z.string(),
  postal_code: z.string(),
  price: z.object({
    product_price: amountViewSchema,
    shipping_fee: amountViewSchema,
    discount: amountViewSchema,
    duties: amountViewSchema.describe('duties and import taxes paid with the order (part of the total)'),
    total: amountViewSchema,
  }),
  duties: dutiesView.nullable().describe('as quoted when the order was placed, never recomputed; null at home'),
  exchange_rate: z.string().describe('display units per settlement unit, frozen when the order was placed'),
  coupon_code: z.string().nullable(),
  notes: z.string(),
  paid_at: z.string().nullable(),
  paid_with: z
    .object({
      method: z.enum(PAYMENT_METHODS),
      method_name: z.string().describe("'PayPal', '支付宝': the method's name in the page's language"),
      charged_amount_minor: z.number().int().describe('minor units of charged_currency'),
      charged_currency: currencyCode,
      charged_text: z.string().describe("'€12.97': what the gateway took, as the buyer's statement shows it"),
    })
    .nullable()
    .describe(
      "the payment that paid the order, as charged (the buyer's display currency or the settlement one, ADR 0144); null until paid",
    ),
  history: z.array(
    z.object({
      status: z.number().int(),
      status_text: z.string(),
      pay_status: z.number().int(),
      actor: z.string(),
      note: z.string(),
      at: z.string(),
    }),
  ),
  shipment: shipment.nullable(),
  refunds: z
    .array(
      z.object({
        amount: amountViewSchema,
        amount_text: z
          .string()
          .describe(
            "'CN¥12.00' (English) or '￥12.00' (Chinese): what came back, in the currency the payment was charged in",
          ),
        refunded_at: z.string(),
      }),
    )
    .describe('money the shop gave back, oldest first (only refunds the gateway confirmed)'),
});
export type OrderDetail = z.infer<typeof orderDetail>;
export type PaidWithView = NonNullable<OrderDetail['paid_with']>;

export const orderPage = z.object({
  records: z.array(orderSummary),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type OrderPage = z.infer<typeof orderPage>;

export const orderExpress = shipment.extend({
  status: z.number().int(),
  events: z.array(z.object({ at: z.string(), description: z.string(), kind: z.string() })).describe('newest first'),
});
export type OrderExpress = z.infer<typeof orderExpress>;

export const orderCounts = z.object({
  all: z.number().int(),
  pending_payment: z.number().int(),
  pending_shipment: z.number().int(),
  pending_receipt: z.number().int(),
  after_sales: z.number().int(),
  by_status: z.record(z.string(), z.number().int()),
});
export type OrderCounts = z.infer<typeof orderCounts>;

/** An order email owed to the buyer: a row of the outbox (server/domains/outbox), sent by its worker. */
export const orderMailJob = z.object({
  orderId: z.number().int().positive(),
  kind: z.enum(['placed', 'paid', 'shipped']),
});
export type OrderMailJob = z.infer<typeof orderMailJob>;
