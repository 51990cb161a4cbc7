import { z } from 'zod';

/** Most of one SKU a cart line or an order line may hold. */
export const MAX_LINE_QUANTITY = 99;
/** Most different SKUs one cart holds. */
export const MAX_CART_LINES = 50;

const id = z.coerce.number().int().min(1).max(2_147_483_647);
export const quantity = z.number().int().min(1).max(MAX_LINE_QUANTITY);

export const addCartItemBody = z.object({ sku_id: id, quantity: quantity.default(1) });
export const setCartItemBody = z.object({ quantity });
export const cartItemParams = z.object({ sku_id: id });
