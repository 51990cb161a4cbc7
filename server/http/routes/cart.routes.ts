import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  addCartItemBody,
  cartCountView,
  cartItemParams,
  cartView,
  setCartItemBody,
  type CartView,
} from '../../domains/cart/cart.schemas';
import {
  addToCart,
  cartCount,
  getCart,
  removeFromCart,
  setCartQuantity,
  type CartKey,
} from '../../domains/cart/cart.service';
import { getSiteSettings } from '../../domains/site-settings/site-settings.service';
import { optionalUser } from '../auth';
import { answers, ok } from '../envelope';
import { cartOwner } from '../guest-cart';

export const cartRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('preHandler', optionalUser);

  async function cartAnswer(request: FastifyRequest, cartKey: CartKey | null): Promise<CartView> {
    const currency = (await getSiteSettings(request.ctx)).currency;
    return getCart(request.ctx, { cartKey, locale: request.ctx.locale, currency });
  }

  app.get(
    '/cart',
    {
      schema: {
        tags: ['cart'],
        summary: "The cart (the signed-in buyer's, else the visitor's cookie cart), each line with its stock problem",
        response: answers(cartView),
      },
    },
    async (request, reply) => ok(await cartAnswer(request, await cartOwner(request, reply, false))),
  );

  app.get(
    '/cart/count',
    {
      schema: {
        tags: ['cart'],
        summary: 'Sum of the quantities in the cart (header badge)',
        response: answers(cartCountView),
      },
    },
    async (request, reply) => ok({ count: await cartCount(request.ctx, await cartOwner(request, reply, false)) }),
  );

  app.post(
    '/cart/items',
    {
      schema: {
        tags: ['cart'],
        summary: 'Add a quantity of a SKU (adds to an existing line)',
        body: addCartItemBody,
        response: answers(cartView, 'write', 'notFound', 'conflict'),
      },
    },
    async (request, reply) => {
      const cartKey = await cartOwner(request, reply, true);
      await addToCart(request.ctx, {
        cartKey,
        skuId: request.body.sku_id,
        quantity: request.body.quantity,
        locale: request.ctx.locale,
      });
      return ok(await cartAnswer(request, cartKey));
    },
  );

  app.put(
    '/cart/items/:sku_id',
    {
      schema: {
        tags: ['cart'],
        summary: "Set a line's quantity",
        params: cartItemParams,
        body: setCartItemBody,
        response: answers(cartView, 'write', 'notFound', 'conflict'),
      },
    },
    async (request, reply) => {
      // Changing a line needs a cart already: a visitor without one gets the 404, not a new cookie.
      const cartKey = await cartOwner(request, reply, false);
      await setCartQuantity(request.ctx, {
        cartKey,
        skuId: request.params.sku_id,
        quantity: request.body.quantity,
        locale: request.ctx.locale,
      });
      return ok(await cartAnswer(request, cartKey));
    },
  );

  app.delete(
    '/cart/items/:sku_id',
    {
      schema: {
        tags: ['cart'],
        summary: 'Remove a line',
        params: cartItemParams,
        response: answers(cartView, 'write', 'notFound'),
      },
    },
    async (request, reply) => {
      const cartKey = await cartOwner(request, reply, false);
      await removeFromCart(request.ctx, { cartKey, skuId: request.params.sku_id });
      return ok(await cartAnswer(request, cartKey));
    },
  );
};
