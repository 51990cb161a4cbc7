import { z } from 'zod';
import { dutiesView } from '../duties/duties.schemas';
import { REFUND_STATES } from '../../db/schema/payments';
import { rowIdFromText } from '../../shared/ids.schemas';
import { currencyCode } from '../../shared/money.schemas';
import { ORDER_STATUSES, PAY_STATUSES } from '../../shared/order-status';
import { PAYMENT_PROVIDERS } from '../../shared/payment-methods';

/**
 * The console's order shapes (the admin API under /v1/admin, docs/console.md). Money is
 * integer minor units of the order's settlement `currency`; times are ISO 8601 strings.
 */

const isoDate = z.iso.date().describe('YYYY-MM-DD, UTC');
const orderStatus = z.coerce
  .number()
  .int()
  .refine((n) => (ORDER_STATUSES as number[]).includes(n), 'unknown order status');
const payStatus = z.coerce
  .number()
  .int()
  .refine((n) => (PAY_STATUSES as number[]).includes(n), 'unknown pay status');

export const ADMIN_ORDER_SORTS = ['created_at', 'total', 'status'] as const;

/** The order list's filters, kept in the console's URL: every one optional. */
export const adminOrderListQuery = z.object({
  status: orderStatus.optional(),
  pay_status: payStatus.optional(),
  from: isoDate.optional().describe('placed on or after this day'),
  to: isoDate.optional().describe('placed on or before this day'),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/)
    .transform((code) => code.toUpperCase())
    .optional(),
  q: z.string().trim().min(1).max(100).optional().describe('order number, buyer email or contact name'),
  sort: z.enum(ADMIN_ORDER_SORTS).default('created_at'),
  dir: z.enum(['asc', 'desc']).default('desc'),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(25),
});
export type AdminOrderListQuery = z.infer<typeof adminOrderListQuery>;

/** The CSV export takes the same filters; its size is capped (ADMIN_ORDER_EXPORT_MAX rows). */
export const adminOrderExportQuery = adminOrderListQuery.omit({ page: true, page_size: true });
export type AdminOrderExportQuery = z.infer<typeof adminOrderExportQuery>;

export const adminOrderIdParams = z.object({ id: rowIdFromText });

export const adminOrderRow = z.object({
  id: z.number().int(),
  order_no: z.string(),
  status: z.number().int(),
  status_text: z.string(),
  pay_status: z.number().int(),
  pay_status_text: z.string(),
  created_at: z.string(),
  paid_at: z.string().nullable(),
  buyer_email: z.string(),
  contact_name: z.string(),
  country_code: z.string(),
  item_count: z.number().int(),
  total_minor: z.number().int(),
  refunded_minor: z.number().int().describe('succeeded refunds'),
  currency: currencyCode,
});
export type AdminOrderRow = z.infer<typeof adminOrderRow>;

export const adminOrderPage = z.object({
  records: z.array(adminOrderRow),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type AdminOrderPage = z.infer<typeof adminOrderPage>;

export const adminRefundRow = z.object({
  id: z.number().int(),
  order_id: z.number().int(),
  order_no: z.string(),
  payment_id: z.number().int(),
  amount_minor: z.number().int(),
  currency: currencyCode,
  charged_amount_minor: z
    .number()
    .int()
    .describe('what goes back at the gateway, in the currency the payment was charged in'),
  charged_currency: currencyCode,
  reason: z.string(),
  status: z.enum(REFUND_STATES),
  idempotency_key: z.string(),
  requested_by: z.object({ id: z.number().int(), email: z.string() }).nullable(),
  made_in: z
    .enum(['shop', ...PAYMENT_PROVIDERS])
    .describe('shop, or the gateway whose own dashboard made the refund (learnt from its webhook)'),
  decided_by: z.object({ id: z.number().int(), email: z.string() }).nullable(),
  decided_at: z.string().nullable(),
  provider_refund_ref: z.string().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  succeeded_at: z.string().nullable(),
});
export type AdminRefundRow = z.infer<typeof adminRefundRow>;

export const adminPaymentRow = z.object({
  id: z.number().int(),
  provider: z.string(),
  provider_ref: z.string().nullable(),
  charge_ref: z.string().nullable(),
  amount_minor: z.number().int(),
  currency: currencyCode,
  charged_amount_minor: z
    .number()
    .int()
    .describe("what the gateway charged: the buyer's display currency at the order's frozen rate, or the amount above"),
  charged_currency: currencyCode,
  status: z.string(),
  paid_at: z.string().nullable(),
  refunded_minor: z.number().int().describe('refunds that succeeded'),
  refundable_minor: z.number().int().describe('captured minus refunds not failed or rejected'),
});

export const TIMELINE_KINDS = ['status', 'tracking', 'audit'] as const;

export const adminTimelineEntry = z.object({
  at: z.string(),
  kind: z.enum(TIMELINE_KINDS),
  /** status: the status text; tracking: the event description; audit: the action (`order.shipped`). */
  title: z.string(),
  detail: z.string().describe('status note, tracking kind, or changed fields'),
  actor: z.string().describe('buyer, system, operator, payment, a staff email or cli'),
});
export type AdminTimelineEntry = z.infer<typeof adminTimelineEntry>;

export const adminOrderLine = z.object({
  sku_id: z.number().int(),
  sku_code: z.string(),
  product_id: z.number().int(),
  name: z.string(),
  properties: z.string(),
  image: z.string().nullable(),
  quantity: z.number().int(),
  unit_price_minor: z.number().int(),
  line_total_minor: z.number().int(),
});

export const adminOrderNote = z.object({
  id: z.number().int(),
  body: z.string(),
  staff: z.object({ id: z.number().int(), email: z.string() }).nullable(),
  created_at: z.string(),
});

export const adminOrderDetail = adminOrderRow.extend({
  locale: z.string(),
  buyer: z.object({ id: z.number().int(), email: z.string(), username: z.string() }),
  address: z.object({
    contact_name: z.string(),
    contact_phone: z.string(),
    country_code: z.string(),
    country: z.string(),
    region: z.string(),
    detail: z.string(),
    postal_code: z.string(),
  }),
  lines: z.array(adminOrderLine),
  goods_minor: z.number().int(),
  shipping_fee_minor: z.number().int(),
  discount_minor: z.number().int(),
  duties_minor: z.number().int().describe('duties and import taxes paid with the order (part of the total)'),
  duties: dutiesView.nullable().describe('the duty lines snapshotted when the order was placed; null at home'),
  coupon_code: z.string().nullable(),
  buyer_notes: z.string(),
  payment_deadline: z.string(),
  shipment: z
    .object({
      carrier_code: z.string(),
      carrier_name: z.string(),
      tracking_no: z.string(),
      shipped_at: z.string().nullable(),
      delivered_at: z.string().nullable(),
    })
    .nullable(),
  payments: z.array(adminPaymentRow),
  refunds: z.array(adminRefundRow),
  refundable_minor: z.number().int().describe('what a refund may still take, over every captured payment'),
  notes: z.array(adminOrderNote),
  timeline: z.array(adminTimelineEntry).describe('oldest first'),
  /** What the order's state allows (permissions aside). */
  can: z.object({
    ship: z.boolean(),
    add_tracking: z.boolean(),
    deliver: z.boolean(),
    cancel: z.boolean(),
    refund: z.boolean(),
  }),
});
export type AdminOrderDetail = z.infer<typeof adminOrderDetail>;

// Action bodies.

export const shipOrderBody = z.object({
  carrier_code: z.string().min(1).max(40),
  tracking_no: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{4,40}$/),
});

export const trackingEventBody = z.object({
  description: z.string().trim().min(1).max(500),
  at: z.iso.datetime({ offset: true }).optional().describe('when it happened; now when absent'),
});

export const deliverBody = z.object({
  at: z.iso.datetime({ offset: true }).optional(),
  description: z.string().trim().max(500).optional(),
});

export const cancelOrderBody = z.object({ reason: z.string().trim().max(500).default('') });

export const orderNoteBody = z.object({ body: z.string().trim().min(1).max(2000) });

export const refundBody = z.object({
  amount_minor: z.number().int().min(1).max(2_147_483_647),
  reason: z.string().trim().min(1).max(500),
  idempotency_key: z
    .string()
    .min(8)
    .max(100)
    .describe('a fresh random key per refund the member means; a repeat returns the same refund'),
});

export const refundIdParams = z.object({ id: rowIdFromText });

export const rejectRefundBody = z.object({ reason: z.string().trim().min(1).max(500) });

export const refundListQuery = z.object({
  status: z.enum(REFUND_STATES).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(25),
});

export const refundPage = z.object({
  records: z.array(adminRefundRow),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});

// Bulk ship.

export const BULK_SHIP_MAX_ROWS = 500;

export const bulkShipBody = z.object({
  csv: z.string().max(100_000).describe('header order_no,carrier,tracking_no; at most 500 rows'),
});

export const bulkShipReport = z.object({
  shipped: z.number().int(),
  failed: z.number().int(),
  rows: z.array(
    z.object({
      row: z.number().int().describe('line number in the CSV, the header being 1'),
      order_no: z.string(),
      ok: z.boolean(),
      error: z.string().nullable().describe("in the member's language"),
    }),
  ),
});
export type BulkShipReport = z.infer<typeof bulkShipReport>;

// Carriers and the home dashboard.

export const adminCarrier = z.object({ code: z.string(), name: z.string() });
export const adminCarrierList = z.array(adminCarrier);

const waitingOrder = z.object({
  id: z.number().int(),
  order_no: z.string(),
  paid_at: z.string().nullable(),
  waiting_hours: z.number().int(),
  contact_name: z.string(),
  country_code: z.string(),
  total_minor: z.number().int(),
  currency: currencyCode,
});

export const adminDashboard = z.object({
  currency: currencyCode.describe('the settlement currency of the sales figures'),
  to_ship: z.object({
    count: z.number().int(),
    oldest_waiting_hours: z.number().int().nullable(),
    orders: z.array(waitingOrder).describe('the 10 that have waited longest'),
  }),
  expiring_unpaid: z.object({
    count: z.number().int().describe('unpaid orders whose payment deadline falls within 2 hours'),
    orders: z.array(
      z.object({
        id: z.number().int(),
        order_no: z.string(),
        payment_deadline: z.string(),
        total_minor: z.number().int(),
        currency: currencyCode,
      }),
    ),
  }),
  refunds_awaiting_approval: z.object({ count: z.number().int(), refunds: z.array(adminRefundRow) }),
  refunds_failed: z
    .object({ count: z.number().int(), refunds: z.array(adminRefundRow) })
    .describe('refunds the gateway kept refusing in the last 30 days: the buyer is still owed them'),
  low_stock: z.object({
    count: z.number().int(),
    skus: z.array(
      z.object({
        sku_id: z.number().int(),
        sku_code: z.string(),
        product_id: z.number().int(),
        product_name: z.string(),
        stock: z.number().int(),
      }),
    ),
  }),
  sales: z.object({
    today_minor: z.number().int(),
    week_minor: z.number().int().describe('the last 7 days, today included'),
    today_orders: z.number().int(),
    week_orders: z.number().int(),
    daily: z
      .array(z.object({ day: z.string(), amount_minor: z.number().int(), orders: z.number().int() }))
      .describe('14 days, oldest first'),
  }),
});
export type AdminDashboard = z.infer<typeof adminDashboard>;
