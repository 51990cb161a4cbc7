import { z } from 'zod';
import { CURRENCIES } from '../../shared/money';
import { multiLineText, singleLineText } from '../../shared/text';
import { MAX_LINE_QUANTITY } from '../cart/cart.schemas';

/** Most different SKUs one order holds. */
export const MAX_ORDER_LINES = 50;

const id = z.number().int().min(1).max(2_147_483_647);

const checkoutFields = {
  /** Buy these now (Buy Now, or a chosen subset). Either this or `from_cart`. */
  items: z
    .array(z.object({ sku_id: id, quantity: z.number().int().min(1).max(MAX_LINE_QUANTITY) }))
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
  .object({ ...checkoutFields, address_id: id.optional() })
  .refine(oneSource, { message: 'order.empty', path: ['items'] });
export type ConfirmOrderBody = z.infer<typeof confirmOrderBody>;

export const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,128}$/;

export const createOrderBody = z
  .object({
    ...checkoutFields,
    address_id: id.optional(),
    notes: multiLineText(500).optional(),
    /** Same as the `Idempotency-Key` header; the header wins when both are sent. */
    idempotency_key: z.string().regex(IDEMPOTENCY_KEY, 'order.idempotencyKeyInvalid').optional(),
  })
  .refine(oneSource, { message: 'order.empty', path: ['items'] });
export type CreateOrderBody = z.infer<typeof createOrderBody>;
