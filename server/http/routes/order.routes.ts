import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { translate } from '../../../i18n';
import { afterSaleListQuery, orderIdParams, orderListQuery } from '../../domains/orders/orders.schemas';
import {
  cancelOrderByBuyer,
  confirmReceipt,
  countOrdersByStatus,
  getOrderDetail,
  getOrderExpress,
  listAfterSaleOrders,
  listOrders,
} from '../../domains/orders/orders.service';
import { requireUser } from '../auth';
import { envelopeOf, ok } from '../envelope';
import { expressSchema, orderCountsSchema, orderDetailSchema, orderPageSchema } from './order-schemas';

/** SPEC section 7's order calls. Every one answers only the signed-in buyer's own orders. */
export const orderRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('preHandler', requireUser);

  app.get(
    '/order/list',
    { schema: { tags: ['order'], summary: 'My orders, newest first; status tab all, 1, 10, 20 or after_sales', querystring: orderListQuery, response: { 200: envelopeOf(orderPageSchema) } } },
    async (request) => ok(await listOrders(request.ctx, { userId: request.ctx.user!.id, query: request.query, locale: request.ctx.locale })),
  );

  app.get(
    '/order/countByStatus',
    { schema: { tags: ['order'], summary: 'Order counts for the My Orders tabs', response: { 200: envelopeOf(orderCountsSchema) } } },
    async (request) => ok(await countOrdersByStatus(request.ctx, request.ctx.user!.id)),
  );

  app.get(
    '/order/afterSaleList',
    { schema: { tags: ['order'], summary: 'Orders in refund or exchange (statuses 40-52, 71)', querystring: afterSaleListQuery, response: { 200: envelopeOf(orderPageSchema) } } },
    async (request) => ok(await listAfterSaleOrders(request.ctx, { userId: request.ctx.user!.id, ...request.query, locale: request.ctx.locale })),
  );

  app.get(
    '/order/:id',
    { schema: { tags: ['order'], summary: 'One order: contact, address, price details, notes, status history, shipment, lines', params: orderIdParams, response: { 200: envelopeOf(orderDetailSchema) } } },
    async (request) => ok(await getOrderDetail(request.ctx, { userId: request.ctx.user!.id, id: request.params.id, locale: request.ctx.locale })),
  );

  app.get(
    '/order/:id/express',
    { schema: { tags: ['order'], summary: 'Carrier, tracking number and tracking events (newest first)', params: orderIdParams, response: { 200: envelopeOf(expressSchema) } } },
    async (request) => ok(await getOrderExpress(request.ctx, { userId: request.ctx.user!.id, id: request.params.id, locale: request.ctx.locale })),
  );

  app.put(
    '/order/cancel/:id',
    { schema: { tags: ['order'], summary: 'Cancel an order awaiting payment (stock is given back)', params: orderIdParams, response: { 200: envelopeOf(orderDetailSchema) } } },
    async (request) => {
      const userId = request.ctx.user!.id;
      await cancelOrderByBuyer(request.ctx, { userId, id: request.params.id });
      const detail = await getOrderDetail(request.ctx, { userId, id: request.params.id, locale: request.ctx.locale });
      return ok(detail, translate(request.ctx.locale, 'order.cancelled'));
    },
  );

  app.put(
    '/order/confirm/:id',
    { schema: { tags: ['order'], summary: 'Confirm receipt of a shipped order (20 -> 30)', params: orderIdParams, response: { 200: envelopeOf(orderDetailSchema) } } },
    async (request) => {
      const userId = request.ctx.user!.id;
      await confirmReceipt(request.ctx, { userId, id: request.params.id });
      const detail = await getOrderDetail(request.ctx, { userId, id: request.params.id, locale: request.ctx.locale });
      return ok(detail, translate(request.ctx.locale, 'order.confirmed'));
    },
  );
};
