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
import { presentedCredentials, requireUser, signedInBuyer } from '../auth';
import { answers, ok } from '../envelope';
import { clientGoneSignal } from '../client-gone';

/** SPEC section 7's `/v2/order/confirm` and `/v2/order` (registered under /v2, as written). */
export const checkoutRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/order/confirm',
    {
      preHandler: requireUser,
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
      schema: {
        tags: ['checkout'],
        summary: 'Place an order (status 1, pay status 1); the same Idempotency-Key answers the same order',
        description:
          'Send an `Idempotency-Key` header (or `idempotency_key` in the body), 8-128 of [A-Za-z0-9_-], unique per attempt to buy.',
        body: createOrderBody,
        response: answers(placedOrder, 'write', 'login', 'notFound', 'conflict', 'busy'),
      },
    },
    async (request, reply) => {
      // Refusals that need no statement come before the turn, so they never queue: no credentials
      // at all ("log in"; requireUser reads nothing for those), a malformed key.
      if (!presentedCredentials(request)) await requireUser(request, reply);
      const raw = request.headers['idempotency-key'];
      const header = Array.isArray(raw) ? raw[0] : raw;
      if (header !== undefined && !IDEMPOTENCY_KEY.test(header))
        throw new BadRequestError('order.idempotencyKeyInvalid');
      const { idempotency_key: bodyKey, notes, ...rest } = request.body;
      // The session check runs in the placement's turn (ADR 0184): under a burst the requests
      // waiting for a turn send nothing, and the turn is held until the placement has finished,
      // whether or not the buyer is still there.
      const { detail, created } = await placementTurns(request.ctx).run(async () => {
        await requireUser(request, reply);
        return placeOrderInTurn(request.ctx, {
          ...rest,
          notes,
          ...signedInBuyer(request),
          idempotencyKey: header ?? bodyKey,
        });
      }, clientGoneSignal(reply));
      return ok({ ...detail, created }, translate(request.ctx.locale, 'order.created'));
    },
  );
};
