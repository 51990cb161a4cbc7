import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Permission } from '../../domains/staff/permissions';
import {
  approveAfterSale,
  getAdminAfterSale,
  listAdminAfterSales,
  receiveAfterSale,
  refundAfterSale,
  rejectAfterSale,
  shipExchange,
} from '../../domains/after-sales/admin-after-sales.service';
import {
  adminAfterSaleDetail,
  adminAfterSaleListQuery,
  type AdminAfterSaleDetail,
  adminAfterSalePage,
  afterSaleIdParams,
  approveAfterSaleBody,
  receiveAfterSaleBody,
  refundAfterSaleBody,
  rejectAfterSaleBody,
  shipExchangeBody,
} from '../../domains/after-sales/after-sales.schemas';
import { actingContext, signedInStaff } from '../admin-api';
import { answers, ok } from '../envelope';

const tags = ['admin'];

/**
 * The console's after-sale desk (ADR 0130): the queue by deadline, the case page and the
 * operator's moves. Each move answers the case page as it now stands; refunds go through the
 * order's payment provider after the answer (ADR 0101).
 */
export const adminAfterSaleRoutes: FastifyPluginAsyncZod = async (app) => {
  const operator = (request: Parameters<typeof actingContext>[0]) => ({
    ...actingContext(request),
    staff: signedInStaff(request),
    locale: request.ctx.locale,
  });

  app.get(
    '/after-sales',
    {
      config: { permission: 'aftersales:read' },
      schema: {
        tags,
        summary: 'After-sale cases in a queue (open by default), the nearest deadline first, with counts per queue',
        querystring: adminAfterSaleListQuery,
        response: answers(adminAfterSalePage, 'invalid', 'login', 'forbidden'),
      },
    },
    async (request) => ok(await listAdminAfterSales(request.ctx, request.query, request.ctx.locale)),
  );

  app.get(
    '/after-sales/:id',
    {
      config: { permission: 'aftersales:read' },
      schema: {
        tags,
        summary: "One case: lines, photos, timeline, the order, the buyer's other cases, what is left to refund",
        params: afterSaleIdParams,
        response: answers(adminAfterSaleDetail, 'invalid', 'login', 'forbidden', 'notFound'),
      },
    },
    async (request) => ok(await getAdminAfterSale(request.ctx, request.params.id, request.ctx.locale)),
  );

  /** One operator move: its body schema and its function stay paired through the type parameter. */
  function move<Body extends z.ZodType>(
    path: string,
    summary: string,
    permission: Permission,
    body: Body,
    run: (ctx: ReturnType<typeof operator>, id: number, body: z.infer<Body>) => Promise<AdminAfterSaleDetail>,
  ) {
    app.post(
      `/after-sales/:id/${path}`,
      {
        config: { permission },
        schema: {
          tags,
          summary,
          params: afterSaleIdParams,
          body,
          response: answers(adminAfterSaleDetail, 'write', 'login', 'forbidden', 'notFound', 'conflict'),
        },
      },
      async (request) => ok(await run(operator(request), request.params.id, request.body as z.infer<Body>)),
    );
  }

  move(
    'approve',
    'Approve: a refund is ready to pay, or a return or exchange awaits the parcel',
    'aftersales:manage',
    approveAfterSaleBody,
    approveAfterSale,
  );
  move(
    'reject',
    'Reject with a reason code and a message to the buyer (one appeal allowed)',
    'aftersales:manage',
    rejectAfterSaleBody,
    rejectAfterSale,
  );
  move(
    'receive',
    'Receive the parcel line by line: accepted and damaged units, restock or not',
    'aftersales:manage',
    receiveAfterSaleBody,
    receiveAfterSale,
  );
  move(
    'refund',
    "Refund the approved amount through the order's payment provider (above your limit it awaits a second approver)",
    'payments:refund',
    refundAfterSaleBody,
    refundAfterSale,
  );
  move(
    'ship-exchange',
    'Ship the replacement SKUs (stock is taken now, never oversold)',
    'aftersales:manage',
    shipExchangeBody,
    shipExchange,
  );
};
