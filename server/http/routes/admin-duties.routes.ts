import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pickText } from '../../../i18n';
import { unclassifiedSkus } from '../../domains/catalog/sku-customs';
import { commercialInvoice } from '../../domains/orders/commercial-invoice.schemas';
import { getCommercialInvoice } from '../../domains/orders/commercial-invoice.service';
import { adminOrderIdParams } from '../../domains/orders/admin-orders.schemas';
import { answers, ok } from '../envelope';

const tags = ['admin'];

/** How many unclassified SKUs the console lists at once: a to-do list, not a report. */
const UNCLASSIFIED_LIMIT = 50;

const unclassifiedSkuList = z.object({
  records: z.array(
    z.object({ sku_id: z.number().int(), sku_code: z.string(), product_id: z.number().int(), name: z.string() }),
  ),
  more: z.boolean().describe('there are more than the records shown'),
});

/**
 * Duties in the console (docs/console.md): the printable commercial invoice of an order's
 * parcel, and the SKUs without an HS code (checkout shows no duty estimate for them).
 */
export const adminDutyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/orders/:id/commercial-invoice',
    {
      config: { permission: 'orders:read' },
      schema: {
        tags,
        summary: "The commercial invoice of an order's parcel: HS codes, origin, values, IOSS or UK VAT number",
        params: adminOrderIdParams,
        response: answers(commercialInvoice, 'invalid', 'login', 'forbidden', 'notFound'),
      },
    },
    async (request) => ok(await getCommercialInvoice(request.ctx, request.params.id)),
  );

  app.get(
    '/duties/unclassified-skus',
    {
      config: { permission: 'orders:read' },
      schema: {
        tags,
        summary: 'Listed SKUs without an HS code: checkout falls back to DDU with no duty estimate for them',
        response: answers(unclassifiedSkuList, 'login', 'forbidden'),
      },
    },
    async (request) => {
      const rows = await unclassifiedSkus(request.ctx, UNCLASSIFIED_LIMIT + 1);
      return ok({
        records: rows.slice(0, UNCLASSIFIED_LIMIT).map((row) => ({
          sku_id: row.skuId,
          sku_code: row.skuCode,
          product_id: row.productId,
          name: pickText(row.productName, request.ctx.locale),
        })),
        more: rows.length > UNCLASSIFIED_LIMIT,
      });
    },
  );
};
