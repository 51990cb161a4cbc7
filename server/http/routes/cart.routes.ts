import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { addCartItemBody, cartItemParams, setCartItemBody } from '../../domains/cart/cart.schemas';
import {
  addToCart,
  cartCount,
  getCart,
  guestCartKey,
  mergeGuestCart,
  removeFromCart,
  setCartQuantity,
  userCartKey,
  type CartKey,
} from '../../domains/cart/cart.service';
import { getSiteSettings } from '../../domains/site-settings/site-settings.service';
import { optionalUser } from '../auth';
import { envelopeOf, ok } from '../envelope';

/** The visitor's cart id (httpOnly, 30 days); merged into the account once they sign in. */
export const GUEST_CART_COOKIE = 'cart_id';
const GUEST_CART_ID = /^[A-Za-z0-9_-]{16,64}$/;
const COOKIE_MAX_AGE = 30 * 24 * 60 * 60;

function guestCartId(request: FastifyRequest): string | undefined {
  const value = request.cookies[GUEST_CART_COOKIE];
  return value && GUEST_CART_ID.test(value) ? value : undefined;
}

/** Moves a visitor's cart into the account that just signed in, and retires the visitor cookie. */
export async function adoptGuestCart(request: FastifyRequest, reply: FastifyReply, userId: number): Promise<void> {
  const guest = guestCartId(request);
  if (!guest) return;
  await mergeGuestCart(request.ctx, { guestCartId: guest, userId });
  reply.clearCookie(GUEST_CART_COOKIE, { path: '/' });
}

/**
 * Whose cart a request works on. A signed-in buyer who still carries a guest cart cookie
 * gets that cart merged into the account here (and the cookie cleared), so a login path
 * that forgot to merge loses nothing.
 */
async function cartOwner(request: FastifyRequest, reply: FastifyReply, create: boolean): Promise<CartKey | null> {
  const guest = guestCartId(request);
  const user = request.ctx.user;
  if (user) {
    await adoptGuestCart(request, reply, user.id);
    return userCartKey(user.id);
  }
  if (guest) return guestCartKey(guest);
  if (!create) return null;
  const id = randomBytes(18).toString('base64url');
  reply.setCookie(GUEST_CART_COOKIE, id, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.ctx.env.NODE_ENV === 'production' && Boolean(request.ctx.env.PUBLIC_URL?.startsWith('https')),
    maxAge: COOKIE_MAX_AGE,
  });
  return guestCartKey(id);
}

const cartLine = z.object({
  sku_id: z.number().int(),
  product_id: z.number().int(),
  name: z.string(),
  properties: z.string().describe("'Colour: Sage / Size: M'"),
  image: z.string().nullable(),
  price: z.string(),
  price_minor: z.number().int(),
  currency: z.string(),
  quantity: z.number().int(),
  line_total_minor: z.number().int(),
  stock: z.number().int(),
  problem: z.enum(['sold_out', 'insufficient_stock', 'unlisted']).nullable(),
  problem_text: z.string().nullable(),
});
export const cartSchema = z.object({
  lines: z.array(cartLine),
  count: z.number().int(),
  goods_amount_minor: z.number().int(),
  goods_amount: z.string(),
  currency: z.string(),
  has_problems: z.boolean(),
});

export const cartRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('preHandler', optionalUser);

  async function cartAnswer(request: FastifyRequest, cartKey: CartKey | null) {
    const currency = (await getSiteSettings(request.ctx)).currency;
    if (!cartKey) return { lines: [], count: 0, goods_amount_minor: 0, goods_amount: '0.00', currency, has_problems: false };
    return getCart(request.ctx, { cartKey, locale: request.ctx.locale, currency });
  }

  app.get(
    '/cart',
    { schema: { tags: ['cart'], summary: "The cart (the signed-in buyer's, else the visitor's cookie cart), each line with its stock problem", response: { 200: envelopeOf(cartSchema) } } },
    async (request, reply) => ok(await cartAnswer(request, await cartOwner(request, reply, false))),
  );

  app.get(
    '/cart/count',
    { schema: { tags: ['cart'], summary: 'Sum of the quantities in the cart (header badge)', response: { 200: envelopeOf(z.object({ count: z.number().int() })) } } },
    async (request, reply) => {
      const cartKey = await cartOwner(request, reply, false);
      return ok({ count: cartKey ? await cartCount(request.ctx, cartKey) : 0 });
    },
  );

  app.post(
    '/cart/items',
    { schema: { tags: ['cart'], summary: 'Add a quantity of a SKU (adds to an existing line)', body: addCartItemBody, response: { 200: envelopeOf(cartSchema) } } },
    async (request, reply) => {
      const cartKey = (await cartOwner(request, reply, true))!;
      await addToCart(request.ctx, { cartKey, skuId: request.body.sku_id, quantity: request.body.quantity, locale: request.ctx.locale });
      return ok(await cartAnswer(request, cartKey));
    },
  );

  app.put(
    '/cart/items/:sku_id',
    { schema: { tags: ['cart'], summary: "Set a line's quantity", params: cartItemParams, body: setCartItemBody, response: { 200: envelopeOf(cartSchema) } } },
    async (request, reply) => {
      const cartKey = (await cartOwner(request, reply, true))!;
      await setCartQuantity(request.ctx, { cartKey, skuId: request.params.sku_id, quantity: request.body.quantity, locale: request.ctx.locale });
      return ok(await cartAnswer(request, cartKey));
    },
  );

  app.delete(
    '/cart/items/:sku_id',
    { schema: { tags: ['cart'], summary: 'Remove a line', params: cartItemParams, response: { 200: envelopeOf(cartSchema) } } },
    async (request, reply) => {
      const cartKey = (await cartOwner(request, reply, true))!;
      await removeFromCart(request.ctx, { cartKey, skuId: request.params.sku_id });
      return ok(await cartAnswer(request, cartKey));
    },
  );
};
