import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { translate } from '../../../i18n';
import {
  confirmOrderBody,
  confirmView as confirmViewSchema,
  createOrderBody,
  IDEMPOTENCY_KEY,
  placedOrder,
} from '../../domains/checkout/checkout.schemas';
import { confirmView, quoteOrder } from '../../domains/checkout/checkout.service';
import { placementTurns, placeOrderInTurn } from '../../domains/checkout/place-order.service';
import { BadRequestError } from '../../shared/errors';
import { requireUser, signedInBuyer } from '../auth';
import { answers, ok } from '../envelope';
import { requestTakesTurn } from '../request-turn';

/** SPEC section 7's `/v2/order/confirm` and `/v2/order` (registered under /v2, as written). */
export const checkoutRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('preHandler', requireUser);

  app.post(
    '/order/confirm',
    {
      schema: {
        tags: ['checkout'],
        summary:
          'Price an order before placing it: product price, shipping fee, discount, total paid, in the settlement and display currencies',
        body: confirmOrderBody,
        response: answers(confirmViewSchema, 'write', 'login', 'notFound', 'conflict'),
      },
    },
    async (request) => {
      const quote = await quoteOrder(request.ctx, { ...request.body, ...signedInBuyer(request) });
      return ok(await confirmView(quote, request.ctx.locale));
    },
  );

  app.post(
    '/order',
    {
      // Once the body has arrived (a client sending it slowly holds no turn), before the session
      // check (this plugin's preHandler): see requestTakesTurn.
      preValidation: requestTakesTurn(placementTurns),
      schema: {
        tags: ['checkout'],
        summary: 'Place an order (status 1, pay status 1); the same Idempotency-Key answers the same order',
        description:
          'Send an `Idempotency-Key` header (or `idempotency_key` in the body), 8-128 of [A-Za-z0-9_-], unique per attempt to buy.',
        body: createOrderBody,
        response: answers(placedOrder, 'write', 'login', 'notFound', 'conflict', 'busy'),
      },
    },
    async (request) => {
      const raw = request.headers['idempotency-key'];
      const header = Array.isArray(raw) ? raw[0] : raw;
      if (header !== undefined && !IDEMPOTENCY_KEY.test(header))
        throw new BadRequestError('order.idempotencyKeyInvalid');
      const { idempotency_key: bodyKey, notes, ...rest } = request.body;
      const { detail, created } = await placeOrderInTurn(request.ctx, {
        ...rest,
        notes,
        ...signedInBuyer(request),
        idempotencyKey: header ?? bodyKey,
      });
      return ok({ ...detail, created }, translate(request.ctx.locale, 'order.created'));
    },
  );
};
