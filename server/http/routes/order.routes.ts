import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { translate, type MessageKey } from '../../../i18n';
import {
  orderCounts,
  orderDetail,
  orderExpress,
  orderIdParams,
  orderListQuery,
  orderPage,
} from '../../domains/orders/orders.schemas';
import {
  cancelOrderByBuyer,
  confirmReceipt,
  getOrderDetail,
  getOrderExpress,
  listOrders,
} from '../../domains/orders/orders.service';
import { orderTabCounts } from '../../domains/after-sales/after-sales.service';
import { requireUser, signedInBuyer } from '../auth';
import { answers, ok } from '../envelope';

/** The moves a buyer makes on their own order; each answers the order as it now stands. */
const buyerMoves = [
  {
    path: '/order/cancel/:id',
    summary: 'Cancel an order awaiting payment (stock is given back)',
    move: cancelOrderByBuyer,
    doneMessage: 'order.cancelled',
  },
  {
    path: '/order/confirm/:id',
    summary: 'Confirm receipt of a shipped order (20 -> 30)',
    move: confirmReceipt,
    doneMessage: 'order.confirmed',
  },
] as const satisfies readonly { path: string; summary: string; move: unknown; doneMessage: MessageKey }[];

/** SPEC section 7's order calls. Every one answers only the signed-in buyer's own orders. */
export const orderRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('preHandler', requireUser);

  app.get(
    '/order/list',
    {
      schema: {
        tags: ['order'],
        summary: 'My orders, newest first; status tab all, 1, 10, 20 or after_sales',
        querystring: orderListQuery,
        response: answers(orderPage, 'invalid', 'login'),
      },
    },
    async (request) => ok(await listOrders(request.ctx, { ...signedInBuyer(request), query: request.query })),
  );

  app.get(
    '/order/countByStatus',
    {
      schema: {
        tags: ['order'],
        summary: 'Counts for the My Orders tabs: orders per status; after_sales counts the after-sale cases',
        response: answers(orderCounts, 'login'),
      },
    },
    async (request) => ok(await orderTabCounts(request.ctx, signedInBuyer(request).userId)),
  );

  app.get(
    '/order/:id',
    {
      schema: {
        tags: ['order'],
        summary: 'One order: contact, address, price details, notes, status history, shipment, lines',
        params: orderIdParams,
        response: answers(orderDetail, 'invalid', 'login', 'notFound'),
      },
    },
    async (request) => ok(await getOrderDetail(request.ctx, { ...signedInBuyer(request), id: request.params.id })),
  );

  app.get(
    '/order/:id/express',
    {
      schema: {
        tags: ['order'],
        summary: 'Carrier, tracking number and tracking events (newest first)',
        params: orderIdParams,
        response: answers(orderExpress, 'invalid', 'login', 'notFound'),
      },
    },
    async (request) => ok(await getOrderExpress(request.ctx, { ...signedInBuyer(request), id: request.params.id })),
  );

  for (const { path, summary, move, doneMessage } of buyerMoves) {
    app.put(
      path,
      {
        schema: {
          tags: ['order'],
          summary,
          params: orderIdParams,
          response: answers(orderDetail, 'write', 'login', 'notFound', 'conflict'),
        },
      },
      async (request) => {
        const buyer = signedInBuyer(request);
        await move(request.ctx, { userId: buyer.userId, id: request.params.id });
        const detail = await getOrderDetail(request.ctx, { ...buyer, id: request.params.id });
        return ok(detail, translate(request.ctx.locale, doneMessage));
      },
    );
  }
};
