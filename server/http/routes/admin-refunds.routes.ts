import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminOrderIdParams,
  adminRefundRow,
  refundBody,
  refundIdParams,
  refundListQuery,
  refundPage,
  rejectRefundBody,
} from '../../domains/orders/admin-orders.schemas';
import { listAdminRefunds, refundView } from '../../domains/orders/admin-refund-views';
import { approveRefund, rejectRefund, requestRefund } from '../../domains/payments/refunds.service';
import { actingContext, signedInStaff } from '../admin-api';
import { answers, ok } from '../envelope';

const tags = ['admin'];

/**
 * Refunds through the order's payment provider (ADR 0101): asked for on an order, approved
 * or rejected by a second member when above the asker's limit, listed for the approval queue.
 * Each answers the refund as it now stands; the gateway is asked after the answer.
 */
export const adminRefundRoutes: FastifyPluginAsyncZod = async (app) => {
  const staffActing = (request: Parameters<typeof actingContext>[0]) => ({
    ...actingContext(request),
    staff: signedInStaff(request),
  });

  app.post(
    '/orders/:id/refunds',
    {
      config: { permission: 'payments:refund' },
      schema: {
        tags,
        summary:
          'Refund all or part of a paid order; above your refund limit it awaits approval. A repeated idempotency_key answers the same refund',
        params: adminOrderIdParams,
        body: refundBody,
        response: answers(adminRefundRow, 'write', 'login', 'forbidden', 'notFound', 'conflict'),
      },
    },
    async (request) => {
      const refund = await requestRefund(staffActing(request), {
        orderId: request.params.id,
        amountMinor: request.body.amount_minor,
        reason: request.body.reason,
        idempotencyKey: request.body.idempotency_key,
      });
      return ok(await refundView(request.ctx, refund));
    },
  );

  app.get(
    '/refunds',
    {
      config: { permission: 'payments:refund' },
      schema: {
        tags,
        summary: 'Refunds, newest first; status=awaiting_approval is the approval queue',
        querystring: refundListQuery,
        response: answers(refundPage, 'invalid', 'login', 'forbidden'),
      },
    },
    async (request) => ok(await listAdminRefunds(request.ctx, request.query)),
  );

  app.post(
    '/refunds/:id/approve',
    {
      config: { permission: 'payments:refund' },
      schema: {
        tags,
        summary: 'Approve a refund awaiting approval (not your own; your limit must cover it)',
        params: refundIdParams,
        response: answers(adminRefundRow, 'write', 'login', 'forbidden', 'notFound', 'conflict'),
      },
    },
    async (request) => ok(await refundView(request.ctx, await approveRefund(staffActing(request), request.params.id))),
  );

  app.post(
    '/refunds/:id/reject',
    {
      config: { permission: 'payments:refund' },
      schema: {
        tags,
        summary: 'Reject a refund awaiting approval, with a reason',
        params: refundIdParams,
        body: rejectRefundBody,
        response: answers(adminRefundRow, 'write', 'login', 'forbidden', 'notFound', 'conflict'),
      },
    },
    async (request) =>
      ok(
        await refundView(request.ctx, await rejectRefund(staffActing(request), request.params.id, request.body.reason)),
      ),
  );
};
