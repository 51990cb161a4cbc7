import { z } from 'zod';
import { rowId } from '../../shared/ids.schemas';
import { CURRENCIES } from '../../shared/money';
import { amountViewSchema, currencyCode } from '../../shared/money.schemas';
import { multiLineText, singleLineText } from '../../shared/text';
import { addressView } from '../addresses/addresses.schemas';
import { dutiesView } from '../duties/duties.schemas';
import { MAX_LINE_QUANTITY } from '../cart/cart.schemas';
import { orderDetail, orderLine } from '../orders/orders.schemas';

/** Most different SKUs one order holds. */
export const MAX_ORDER_LINES = 50;

const checkoutFields = {
  /** Buy these now (Buy Now, or a chosen subset). Either this or `from_cart`. */
  items: z
    .array(z.object({ sku_id: rowId, quantity: z.number().int().min(1).max(MAX_LINE_QUANTITY) }))
    .min(1, 'order.empty')
    .max(MAX_ORDER_LINES)
    .optional(),
  /** Buy every line of the signed-in buyer's cart. */
  from_cart: z.boolean().optional(),
  coupon_code: singleLineText(40).optional(),
  /** The buyer's display currency; amounts are also given in it, at the shop's current rate. */
  currency: z.enum(CURRENCIES).optional(),
};

function oneSource<T extends { items?: unknown[]; from_cart?: boolean }>(value: T): boolean {
  return Boolean(value.items?.length) !== Boolean(value.from_cart);
}

export const confirmOrderBody = z
  .object({ ...checkoutFields, address_id: rowId.optional() })
  .refine(oneSource, { message: 'order.empty', path: ['items'] });

export const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,128}$/;

export const createOrderBody = z
  .object({
    ...checkoutFields,
    address_id: rowId.optional(),
    notes: multiLineText(500).optional(),
    /** Same as the `Idempotency-Key` header; the header wins when both are sent. */
    idempotency_key: z.string().regex(IDEMPOTENCY_KEY, 'order.idempotencyKeyInvalid').optional(),
  })
  .refine(oneSource, { message: 'order.empty', path: ['items'] });

/** `POST /v2/order/confirm`: the price of an order before it is placed (SPEC section 2's four order-info lines). */
export const confirmView = z.object({
  lines: z.array(orderLine),
  address: addressView.nullable(),
  needs_address: z.boolean().describe('true when there is no address yet: the shipping fee is not known'),
  currency: currencyCode,
  display_currency: currencyCode,
  exchange_rate: z.string().describe('display units per settlement unit'),
  weight_grams: z.number().int(),
  coupon: z.object({ code: z.string(), discount: amountViewSchema }).nullable(),
  product_price: amountViewSchema,
  shipping_fee: amountViewSchema,
  discount: amountViewSchema,
  duties: dutiesView
    .nullable()
    .describe(
      'duties and import taxes of a parcel abroad; `duties.charged` is part of `total`; null at home or without an address',
    ),
  total: amountViewSchema,
  labels: z.object({ product_price: z.string(), shipping_fee: z.string(), discount: z.string(), total: z.string() }),
});
export type ConfirmView = z.infer<typeof confirmView>;

/** `POST /v2/order`: the order, and whether this call created it (false: the same Idempotency-Key answered again). */
export const placedOrder = orderDetail.extend({ created: z.boolean() });
