import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pickText } from '../../../i18n';
import { addOrderNote, bulkShip, cancelOrderByStaff } from '../../domains/orders/admin-order-actions.service';
import { getAdminOrderDetail } from '../../domains/orders/admin-order-detail.service';
import { getAdminDashboard } from '../../domains/orders/admin-dashboard.service';
import {
  adminCarrierList,
  adminDashboard,
  adminOrderDetail,
  adminOrderExportQuery,
  adminOrderIdParams,
  adminOrderListQuery,
  adminOrderPage,
  bulkShipBody,
  bulkShipReport,
  cancelOrderBody,
  deliverBody,
  orderNoteBody,
  shipOrderBody,
  trackingEventBody,
} from '../../domains/orders/admin-orders.schemas';
import { exportAdminOrdersCsv, listAdminOrders } from '../../domains/orders/admin-orders.service';
import { addTrackingEvent, markDelivered, shipOrder } from '../../domains/orders/order-operations.service';
import { CARRIERS } from '../../domains/tracking/carriers';
import { actingContext } from '../admin-api';
import { answers, failures, ok } from '../envelope';

const tags = ['admin'];

/**
 * The console's orders: list, CSV export, detail, the home dashboard, and the actions on an
 * order (docs/console.md, "Admin API: orders, refunds and the dashboard"). Every action
 * answers the order's detail as it now stands.
 */
export const adminOrderRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/orders',
    {
      config: { permission: 'orders:read' },
      schema: {
        tags,
        summary: 'Orders, filtered, sorted and paged on the server',
        querystring: adminOrderListQuery,
        response: answers(adminOrderPage, 'invalid', 'login', 'forbidden'),
      },
    },
    async (request) => ok(await listAdminOrders(request.ctx, request.query)),
  );

  app.get(
    '/orders/export',
    {
      config: { permission: 'orders:export' },
      schema: {
        tags,
        summary: 'The filtered list as CSV (text/csv, at most 10,000 rows; formula cells defused)',
        querystring: adminOrderExportQuery,
        response: {
          200: z.string().describe('text/csv; charset=utf-8, with a header line; sent as an attachment'),
          ...failures('invalid', 'login', 'forbidden'),
        },
      },
    },
    async (request, reply) => {
      const csv = await exportAdminOrdersCsv(request.ctx, request.query);
      const stamp = new Date().toISOString().slice(0, 10);
      reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="orders-${stamp}.csv"`);
      return csv;
    },
  );

  app.get(
    '/orders/:id',
    {
      config: { permission: 'orders:read' },
      schema: {
        tags,
        summary: 'One order: lines, buyer, address, payments, refunds, notes and timeline',
        params: adminOrderIdParams,
        response: answers(adminOrderDetail, 'invalid', 'login', 'forbidden', 'notFound'),
      },
    },
    async (request) => ok(await getAdminOrderDetail(request.ctx, request.params.id)),
  );

  app.post(
    '/orders/:id/ship',
    {
      config: { permission: 'orders:fulfil' },
      schema: {
        tags,
        summary: 'Ship a paid order with a carrier and tracking number; the buyer is emailed',
        params: adminOrderIdParams,
        body: shipOrderBody,
        response: answers(adminOrderDetail, 'write', 'login', 'forbidden', 'notFound', 'conflict'),
      },
    },
    async (request) => {
      await shipOrder(actingContext(request), {
        orderId: request.params.id,
        carrierCode: request.body.carrier_code,
        trackingNo: request.body.tracking_no,
      });
      return ok(await getAdminOrderDetail(request.ctx, request.params.id));
    },
  );

  app.post(
    '/orders/:id/tracking',
    {
      config: { permission: 'orders:fulfil' },
      schema: {
        tags,
        summary: 'Add a tracking event to a shipped order',
        params: adminOrderIdParams,
        body: trackingEventBody,
        response: answers(adminOrderDetail, 'write', 'login', 'forbidden', 'notFound', 'conflict'),
      },
    },
    async (request) => {
      await addTrackingEvent(actingContext(request), {
        orderId: request.params.id,
        description: request.body.description,
        at: request.body.at ? new Date(request.body.at) : undefined,
      });
      return ok(await getAdminOrderDetail(request.ctx, request.params.id));
    },
  );

  app.post(
    '/orders/:id/deliver',
    {
      config: { permission: 'orders:fulfil' },
      schema: {
        tags,
        summary: 'Record delivery (the buyer still confirms receipt)',
        params: adminOrderIdParams,
        body: deliverBody,
        response: answers(adminOrderDetail, 'write', 'login', 'forbidden', 'notFound', 'conflict'),
      },
    },
    async (request) => {
      await markDelivered(actingContext(request), {
        orderId: request.params.id,
        at: request.body.at ? new Date(request.body.at) : undefined,
        description: request.body.description,
      });
      return ok(await getAdminOrderDetail(request.ctx, request.params.id));
    },
  );

  app.post(
    '/orders/:id/cancel',
    {
      config: { permission: 'orders:cancel' },
      schema: {
        tags,
        summary: 'Cancel an unpaid order; its stock and coupon use come back',
        params: adminOrderIdParams,
        body: cancelOrderBody,
        response: answers(adminOrderDetail, 'write', 'login', 'forbidden', 'notFound', 'conflict'),
      },
    },
    async (request) => {
      await cancelOrderByStaff(actingContext(request), { orderId: request.params.id, reason: request.body.reason });
      return ok(await getAdminOrderDetail(request.ctx, request.params.id));
    },
  );

  app.post(
    '/orders/:id/notes',
    {
      config: { permission: 'orders:note' },
      schema: {
        tags,
        summary: 'Add an internal note (never shown to the buyer)',
        params: adminOrderIdParams,
        body: orderNoteBody,
        response: answers(adminOrderDetail, 'write', 'login', 'forbidden', 'notFound'),
      },
    },
    async (request) => {
      await addOrderNote(actingContext(request), { orderId: request.params.id, body: request.body.body });
      return ok(await getAdminOrderDetail(request.ctx, request.params.id));
    },
  );

  app.post(
    '/orders/bulk-ship',
    {
      config: { permission: 'orders:fulfil' },
      schema: {
        tags,
        summary: 'Ship orders from a CSV (order_no,carrier,tracking_no; at most 500 rows), reported per row',
        body: bulkShipBody,
        response: answers(bulkShipReport, 'write', 'login', 'forbidden'),
      },
    },
    async (request) =>
      ok(await bulkShip(actingContext(request), { csv: request.body.csv, locale: request.ctx.locale })),
  );

  app.get(
    '/carriers',
    {
      config: { permission: 'orders:read' },
      schema: {
        tags,
        summary: 'The carriers an order can ship with',
        response: answers(adminCarrierList, 'login', 'forbidden'),
      },
    },
    async (request) =>
      ok(CARRIERS.map((carrier) => ({ code: carrier.code, name: pickText(carrier.name, request.ctx.locale) }))),
  );

  app.get(
    '/dashboard',
    {
      config: { permission: 'orders:read' },
      schema: {
        tags,
        summary: 'Home: orders to ship, unpaid orders about to expire, refunds to approve, low stock, sales',
        response: answers(adminDashboard, 'login', 'forbidden'),
      },
    },
    async (request) => ok(await getAdminDashboard(request.ctx)),
  );
};
