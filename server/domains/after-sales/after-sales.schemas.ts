import { z } from 'zod';
import { AFTER_SALE_REASONS, AFTER_SALE_REJECTIONS, AFTER_SALE_STATES } from '../../db/schema/after-sales';
import { rowId, rowIdFromText } from '../../shared/ids.schemas';
import { amountViewSchema, currencyCode } from '../../shared/money.schemas';
import { AFTER_SALE_TYPES } from '../../shared/order-status';
import { multiLineText, singleLineText } from '../../shared/text';
import { IDEMPOTENCY_KEY } from '../checkout/checkout.schemas';
import { MAX_LINE_QUANTITY } from '../cart/cart.schemas';
import { AFTER_SALE_MAX_PHOTOS } from './after-sale-policy';

/**
 * The after-sale API's shapes (ADR 0130), for the buyer's `/v1/after-sale` calls, the console's
 * `/v1/admin/after-sales` calls and the pages that call the same functions.
 */

const afterSaleType = z
  .union(AFTER_SALE_TYPES.map((type) => z.literal(type)))
  .describe('10 refund only, 20 refund and return, 30 exchange');
const photoUrl = z
  .string()
  .max(200)
  .regex(/^\/v1\/upload\/private\/[A-Za-z0-9_-]{16,64}$/, 'afterSale.photoInvalid');

export const afterSaleIdParams = z.object({ id: rowIdFromText });
export const afterSaleOrderParams = z.object({ orderId: rowIdFromText });

const requestedLine = z.object({
  order_item_id: rowId,
  quantity: z.number().int().min(1).max(MAX_LINE_QUANTITY),
  /** Exchange only: the SKU of the same product the buyer wants instead. */
  wanted_sku_id: rowId.optional(),
});

const caseLines = z
  .array(requestedLine)
  .min(1, 'afterSale.noLines')
  .max(50)
  .refine((lines) => new Set(lines.map((line) => line.order_item_id)).size === lines.length, 'afterSale.lineTwice');

/** `POST /v1/after-sale/estimate`: what these lines would be worth back. */
export const afterSaleEstimateBody = z.object({
  order_id: rowId,
  type: afterSaleType,
  lines: caseLines,
});

/** `POST /v1/after-sale`: a buyer's request. */
export const createAfterSaleBody = afterSaleEstimateBody.extend({
  reason: z.enum(AFTER_SALE_REASONS),
  description: multiLineText(1000).default(''),
  photos: z.array(photoUrl).max(AFTER_SALE_MAX_PHOTOS, 'afterSale.tooManyPhotos').default([]),
  idempotency_key: z.string().regex(IDEMPOTENCY_KEY, 'order.idempotencyKeyInvalid'),
});
export type CreateAfterSaleBody = z.infer<typeof createAfterSaleBody>;

export const afterSaleTrackingBody = z.object({
  carrier: singleLineText(60).pipe(z.string().min(1, 'afterSale.carrierRequired')),
  tracking_no: singleLineText(60).pipe(z.string().regex(/^[A-Za-z0-9-]{4,40}$/, 'afterSale.trackingInvalid')),
});

export const afterSaleAppealBody = z.object({
  message: multiLineText(1000).pipe(z.string().min(1, 'afterSale.appealMessageRequired')),
  photos: z.array(photoUrl).max(AFTER_SALE_MAX_PHOTOS, 'afterSale.tooManyPhotos').default([]),
});

export const afterSaleListQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(10),
  /** Only this order's cases (the order page). */
  order_id: rowIdFromText.optional(),
});

// Answers

const caseLineView = z.object({
  id: z.number().int(),
  order_item_id: z.number().int(),
  product_id: z.number().int(),
  name: z.string(),
  properties: z.string(),
  image: z.string().nullable(),
  quantity: z.number().int(),
  refund: amountViewSchema,
  wanted: z.object({ sku_id: z.number().int(), properties: z.string() }).nullable(),
  accepted_quantity: z.number().int().nullable(),
  damaged_quantity: z.number().int().nullable(),
  restocked: z.boolean(),
});

const timelineEntry = z.object({
  state: z.enum(AFTER_SALE_STATES),
  text: z.string(),
  actor: z.string().describe('buyer, operator, system or payment'),
  message: z.string().nullable(),
  at: z.string(),
});

const refundView = z.object({
  id: z.number().int(),
  status: z.string().describe('awaiting_approval, pending, succeeded, failed, rejected'),
  status_text: z.string(),
  amount: amountViewSchema,
  succeeded_at: z.string().nullable(),
});

export const afterSaleSummary = z.object({
  id: z.number().int(),
  case_no: z.string(),
  order_id: z.number().int(),
  order_no: z.string(),
  type: afterSaleType,
  type_text: z.string(),
  status: z.number().int().describe('SPEC section 4: 1 pending, 2 cancelled, 3 in progress, 4 completed'),
  status_text: z.string(),
  state: z.enum(AFTER_SALE_STATES),
  state_text: z.string(),
  created_at: z.string(),
  deadline: z.string().nullable().describe('answer by, parcel by or appeal by, depending on the state'),
  currency: currencyCode,
  display_currency: currencyCode,
  estimate: amountViewSchema,
  unit_count: z.number().int(),
  lines: z.array(caseLineView),
});
export type AfterSaleSummary = z.infer<typeof afterSaleSummary>;

export const afterSaleDetail = afterSaleSummary.extend({
  reason: z.enum(AFTER_SALE_REASONS),
  reason_text: z.string(),
  description: z.string(),
  photos: z.array(z.string()),
  approved: amountViewSchema.nullable(),
  includes_shipping: z.boolean(),
  returnless: z.boolean(),
  rejection: z.enum(AFTER_SALE_REJECTIONS).nullable(),
  rejection_text: z.string().nullable(),
  shop_message: z.string().nullable(),
  return_address: z.string().nullable().describe('where to send the parcel, once approved'),
  return_carrier: z.string().nullable(),
  return_tracking_no: z.string().nullable(),
  exchange_shipment: z
    .object({ carrier_name: z.string(), tracking_no: z.string(), tracking_url: z.string() })
    .nullable(),
  refunds: z.array(refundView),
  timeline: z.array(timelineEntry),
  can_cancel: z.boolean(),
  can_add_tracking: z.boolean(),
  can_appeal: z.boolean(),
  can_confirm_exchange: z.boolean(),
});
export type AfterSaleDetail = z.infer<typeof afterSaleDetail>;

export const afterSalePage = z.object({
  records: z.array(afterSaleSummary),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type AfterSalePage = z.infer<typeof afterSalePage>;

/** `GET /v1/after-sale/order/:orderId`: what the buyer may ask for on this order, for the request form. */
export const afterSaleOptions = z.object({
  order_id: z.number().int(),
  order_no: z.string(),
  eligible: z.boolean(),
  /** Why nothing can be asked (not paid, window closed, everything already asked for), in words. */
  refusal: z.string().nullable(),
  window_ends_at: z.string().nullable().describe('null while the goods have not arrived'),
  window_days: z.number().int(),
  types: z.array(afterSaleType).describe('refund only before shipping; all three once shipped'),
  reasons: z.array(z.object({ value: z.enum(AFTER_SALE_REASONS), text: z.string(), needs_photos: z.boolean() })),
  currency: currencyCode,
  display_currency: currencyCode,
  lines: z.array(
    z.object({
      order_item_id: z.number().int(),
      product_id: z.number().int(),
      name: z.string(),
      properties: z.string(),
      image: z.string().nullable(),
      bought: z.number().int(),
      available: z.number().int().describe('units not yet in another case'),
      final_sale: z.boolean(),
      unit_price: amountViewSchema,
      /** Other SKUs of the same product in stock, for an exchange. */
      exchange_options: z.array(z.object({ sku_id: z.number().int(), properties: z.string() })),
    }),
  ),
});
export type AfterSaleOptions = z.infer<typeof afterSaleOptions>;

export const afterSaleEstimate = z.object({
  refund: amountViewSchema,
  lines: z.array(z.object({ order_item_id: z.number().int(), refund: amountViewSchema })),
});
export type AfterSaleEstimate = z.infer<typeof afterSaleEstimate>;

// Console

export const AFTER_SALE_QUEUES = [
  'open',
  'requested',
  'awaiting_parcel',
  'in_transit',
  'received',
  'refunding',
  'finished',
  /** Every case, open or not: one order's cases on its console page. */
  'all',
] as const;

export const adminAfterSaleListQuery = z.object({
  queue: z.enum(AFTER_SALE_QUEUES).default('open'),
  type: z.coerce.number().pipe(afterSaleType).optional(),
  order_id: rowIdFromText.optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(25),
});

export const adminAfterSaleRow = afterSaleSummary.extend({
  buyer: z.object({ id: z.number().int(), username: z.string(), email: z.string() }),
  country_code: z.string(),
  /** Milliseconds until `deadline` (negative once past). */
  time_left_ms: z.number().nullable(),
});

export const adminAfterSalePage = z.object({
  records: z.array(adminAfterSaleRow),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  counts: z.record(z.string(), z.number().int()).describe('open cases per queue'),
});

export const adminAfterSaleDetail = afterSaleDetail.extend({
  buyer: z.object({ id: z.number().int(), username: z.string(), email: z.string() }),
  country_code: z.string(),
  order_status: z.number().int(),
  order_status_text: z.string(),
  order_total: amountViewSchema,
  shipping_fee: amountViewSchema,
  /** What is left to refund of the order's captured payment. */
  refundable: amountViewSchema,
  returnless_below: amountViewSchema,
  window_ends_at: z.string().nullable(),
  buyer_cases: z.array(
    z.object({
      id: z.number().int(),
      case_no: z.string(),
      type_text: z.string(),
      state_text: z.string(),
      created_at: z.string(),
    }),
  ),
  time_left_ms: z.number().nullable(),
  /** The reason codes a rejection may give, named in the member's language. */
  rejection_options: z.array(z.object({ value: z.enum(AFTER_SALE_REJECTIONS), text: z.string() })),
  /** Carriers the exchange can ship with. */
  carriers: z.array(z.object({ code: z.string(), name: z.string() })),
  /** The operator's moves the case's state allows now (the lifecycle table); the member's permissions decide the rest. */
  operator_can: z.object({
    approve: z.boolean(),
    approve_returnless: z.boolean(),
    reject: z.boolean(),
    receive: z.boolean(),
    refund: z.boolean(),
    ship_exchange: z.boolean(),
  }),
});
export type AdminAfterSaleDetail = z.infer<typeof adminAfterSaleDetail>;

export const approveAfterSaleBody = z.object({
  /** Refund types: the amount to refund, at most the estimate plus shipping; defaults to the estimate. */
  amount_minor: z.number().int().min(0).max(2_147_483_647).optional(),
  include_shipping: z.boolean().default(false),
  /** Refund and return only: refund without the goods coming back (below the returnless threshold). */
  returnless: z.boolean().default(false),
  message: multiLineText(1000).default(''),
});

export const rejectAfterSaleBody = z.object({
  rejection: z.enum(AFTER_SALE_REJECTIONS),
  message: multiLineText(1000).pipe(z.string().min(1, 'afterSale.rejectMessageRequired')),
});

export const receiveAfterSaleBody = z.object({
  lines: z
    .array(
      z.object({
        line_id: rowId,
        accepted_quantity: z.number().int().min(0).max(MAX_LINE_QUANTITY),
        damaged_quantity: z.number().int().min(0).max(MAX_LINE_QUANTITY),
        restock: z.boolean(),
      }),
    )
    .min(1)
    .max(50),
});

export const refundAfterSaleBody = z.object({
  idempotency_key: z.string().regex(IDEMPOTENCY_KEY, 'order.idempotencyKeyInvalid'),
});

export const shipExchangeBody = z.object({
  carrier_code: singleLineText(40).pipe(z.string().min(1)),
  tracking_no: singleLineText(60).pipe(z.string().regex(/^[A-Za-z0-9-]{4,40}$/, 'afterSale.trackingInvalid')),
});
