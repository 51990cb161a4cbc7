import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { translate, type MessageKey } from '../../../i18n';
import {
  afterSaleAppealBody,
  afterSaleDetail,
  afterSaleEstimate,
  afterSaleEstimateBody,
  afterSaleIdParams,
  afterSaleListQuery,
  afterSaleOptions,
  afterSaleOrderParams,
  afterSalePage,
  afterSaleTrackingBody,
  createAfterSaleBody,
} from '../../domains/after-sales/after-sales.schemas';
import {
  addReturnTracking,
  afterSaleOptionsFor,
  appealAfterSale,
  cancelAfterSale,
  confirmExchange,
  createAfterSale,
  estimateAfterSale,
  getAfterSale,
  listAfterSales,
} from '../../domains/after-sales/after-sales.service';
import { requireUser, signedInBuyer } from '../auth';
import { answers, ok } from '../envelope';

const tags = ['after-sale'];

/** The buyer's moves without a body; each answers the case as it now stands. */
const plainMoves = [
  {
    path: '/after-sale/:id/cancel',
    summary: 'Withdraw a request not yet answered, or a return not yet sent',
    move: cancelAfterSale,
    doneMessage: 'afterSale.done.cancelled',
  },
  {
    path: '/after-sale/:id/confirm',
    summary: 'Confirm the replacement of an exchange arrived',
    move: confirmExchange,
    doneMessage: 'afterSale.done.confirmed',
  },
] as const satisfies readonly { path: string; summary: string; move: unknown; doneMessage: MessageKey }[];

/**
 * After-sale service (refund, return, exchange; ADR 0130): SPEC section 7's
 * `GET /order/afterSaleList` and the calls the request form and the case page make. Every
 * one answers only the signed-in buyer's own orders and cases; others' are 404.
 */
export const afterSaleRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('preHandler', requireUser);

  app.get(
    '/order/afterSaleList',
    {
      schema: {
        tags: ['order', ...tags],
        summary: "My after-sale requests, newest first, with SPEC's after-sale status (1-4); order_id: one order's",
        querystring: afterSaleListQuery,
        response: answers(afterSalePage, 'invalid', 'login'),
      },
    },
    async (request) => {
      const { order_id: orderId, ...paging } = request.query;
      return ok(await listAfterSales(request.ctx, { ...signedInBuyer(request), ...paging, orderId }));
    },
  );

  app.get(
    '/after-sale/order/:orderId',
    {
      schema: {
        tags,
        summary: 'What can be asked on an order: types, reasons, lines with units left, the window',
        params: afterSaleOrderParams,
        response: answers(afterSaleOptions, 'invalid', 'login', 'notFound'),
      },
    },
    async (request) =>
      ok(await afterSaleOptionsFor(request.ctx, { ...signedInBuyer(request), orderId: request.params.orderId })),
  );

  app.post(
    '/after-sale/estimate',
    {
      schema: {
        tags,
        summary:
          'The refund the chosen lines would bring, computed from the order (nothing sent is trusted about money)',
        body: afterSaleEstimateBody,
        response: answers(afterSaleEstimate, 'write', 'login', 'notFound'),
      },
    },
    async (request) => ok(await estimateAfterSale(request.ctx, { ...signedInBuyer(request), body: request.body })),
  );

  app.post(
    '/after-sale',
    {
      schema: {
        tags,
        summary:
          'Ask for a refund (10), a return and refund (20) or an exchange (30) of some units; a repeated idempotency_key answers the same case',
        body: createAfterSaleBody,
        response: answers(afterSaleDetail, 'write', 'login', 'notFound', 'conflict', 'tooMany'),
      },
    },
    async (request) => {
      const detail = await createAfterSale(request.ctx, { ...signedInBuyer(request), body: request.body });
      return ok(detail, translate(request.ctx.locale, 'afterSale.done.requested'));
    },
  );

  app.get(
    '/after-sale/:id',
    {
      schema: {
        tags,
        summary: 'One request: lines, photos, timeline, the shop’s messages, where to send the parcel, refunds',
        params: afterSaleIdParams,
        response: answers(afterSaleDetail, 'invalid', 'login', 'notFound'),
      },
    },
    async (request) => ok(await getAfterSale(request.ctx, { ...signedInBuyer(request), id: request.params.id })),
  );

  app.put(
    '/after-sale/:id/tracking',
    {
      schema: {
        tags,
        summary: 'The carrier and tracking number of the parcel sent back',
        params: afterSaleIdParams,
        body: afterSaleTrackingBody,
        response: answers(afterSaleDetail, 'write', 'login', 'notFound', 'conflict'),
      },
    },
    async (request) => {
      const detail = await addReturnTracking(request.ctx, {
        ...signedInBuyer(request),
        id: request.params.id,
        body: request.body,
      });
      return ok(detail, translate(request.ctx.locale, 'afterSale.done.tracking'));
    },
  );

  app.put(
    '/after-sale/:id/appeal',
    {
      schema: {
        tags,
        summary: 'Appeal a rejection once, within 7 days, with a message and new photos',
        params: afterSaleIdParams,
        body: afterSaleAppealBody,
        response: answers(afterSaleDetail, 'write', 'login', 'notFound', 'conflict', 'tooMany'),
      },
    },
    async (request) => {
      const detail = await appealAfterSale(request.ctx, {
        ...signedInBuyer(request),
        id: request.params.id,
        body: request.body,
      });
      return ok(detail, translate(request.ctx.locale, 'afterSale.done.appealed'));
    },
  );

  for (const { path, summary, move, doneMessage } of plainMoves) {
    app.put(
      path,
      {
        schema: {
          tags,
          summary,
          params: afterSaleIdParams,
          response: answers(afterSaleDetail, 'write', 'login', 'notFound', 'conflict'),
        },
      },
      async (request) => {
        const detail = await move(request.ctx, { ...signedInBuyer(request), id: request.params.id });
        return ok(detail, translate(request.ctx.locale, doneMessage));
      },
    );
  }
};
