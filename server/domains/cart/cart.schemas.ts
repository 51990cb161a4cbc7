import { z } from 'zod';
import { rowIdFromText } from '../../shared/ids.schemas';
import { currencyCode } from '../../shared/money.schemas';

/** Most of one SKU a cart line or an order line may hold. */
export const MAX_LINE_QUANTITY = 99;
/** Most different SKUs one cart holds. */
export const MAX_CART_LINES = 50;

export const quantity = z.number().int().min(1).max(MAX_LINE_QUANTITY);

/**
 * A visitor cart's id as its `cart_id` cookie carries it (server/http/guest-cart.ts makes 24
 * characters); any other value means the visitor has no cart.
 */
export const guestCartId = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/);

export const addCartItemBody = z.object({ sku_id: rowIdFromText, quantity: quantity.default(1) });
export const setCartItemBody = z.object({ quantity });
export const cartItemParams = z.object({ sku_id: rowIdFromText });

const cartLine = z.object({
  sku_id: z.number().int(),
  product_id: z.number().int(),
  name: z.string(),
  properties: z.string().describe("'Colour: Sage / Size: M'"),
  image: z.string().nullable(),
  price: z.string(),
  price_minor: z.number().int(),
  currency: currencyCode,
  quantity: z.number().int(),
  line_total_minor: z.number().int(),
  stock: z.number().int(),
  problem: z
    .enum(['sold_out', 'insufficient_stock', 'unlisted'])
    .nullable()
    .describe('null when the line can be bought as it is'),
  problem_text: z.string().nullable(),
});
export type CartLineView = z.infer<typeof cartLine>;

export const cartView = z.object({
  lines: z.array(cartLine),
  count: z.number().int().describe('sum of quantities (the header badge)'),
  goods_amount_minor: z
    .number()
    .int()
    .describe('goods total of the lines without a problem, minor units of `currency`'),
  goods_amount: z.string(),
  currency: currencyCode,
  has_problems: z.boolean(),
});
export type CartView = z.infer<typeof cartView>;

export const cartCountView = z.object({ count: z.number().int() });
