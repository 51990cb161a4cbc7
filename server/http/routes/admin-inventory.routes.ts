import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adjustmentHistory,
  adjustStock,
  listInventory,
  lowStockSkus,
  setLowStockThreshold,
} from '../../domains/catalog/inventory.service';
import {
  adjustmentBody,
  adjustmentHistory as adjustmentHistoryAnswer,
  adjustmentResult,
  inventoryListQuery,
  inventoryPage,
  inventorySku,
  lowStockList,
  skuIdParams,
  thresholdBody,
} from '../../domains/catalog/inventory.schemas';
import { actingContext } from '../admin-api';
import { answers, ok } from '../envelope';

const tags = ['admin'];
const config = { permission: 'catalog:write' } as const;

/** How many low SKUs home lists at once. */
const LOW_STOCK_LIMIT = 10;

/**
 * Inventory (docs/console.md, "Inventory"): SKUs and their stock, adjustments with a reason
 * (never below zero, safe beside orders placed at the same moment), their history, and the
 * low-stock threshold that feeds home's attention list.
 */
export const adminInventoryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/inventory',
    {
      config,
      schema: {
        tags,
        summary: 'SKUs with stock and threshold: search by SKU code or product name, or only the low ones',
        querystring: inventoryListQuery,
        response: answers(inventoryPage, 'invalid', 'login', 'forbidden'),
      },
    },
    async (request) => ok(await listInventory(request.ctx, request.query)),
  );

  app.get(
    '/inventory/low-stock',
    {
      config,
      schema: {
        tags,
        summary: "SKUs at or under their low-stock threshold, emptiest first (home's attention list)",
        response: answers(lowStockList, 'login', 'forbidden'),
      },
    },
    async (request) => ok(await lowStockSkus(request.ctx, LOW_STOCK_LIMIT)),
  );

  app.get(
    '/inventory/:id/adjustments',
    {
      config,
      schema: {
        tags,
        summary: 'A SKU and its latest 100 stock adjustments, newest first',
        params: skuIdParams,
        response: answers(adjustmentHistoryAnswer, 'invalid', 'login', 'forbidden', 'notFound'),
      },
    },
    async (request) => ok(await adjustmentHistory(request.ctx, request.params.id)),
  );

  app.post(
    '/inventory/:id/adjustments',
    {
      config,
      schema: {
        tags,
        summary: "Add to or take from a SKU's stock with a reason; refused (409) if it would go below zero",
        params: skuIdParams,
        body: adjustmentBody,
        response: answers(adjustmentResult, 'write', 'login', 'forbidden', 'notFound', 'conflict'),
      },
    },
    async (request) => ok(await adjustStock(actingContext(request), request.params.id, request.body)),
  );

  app.put(
    '/inventory/:id/threshold',
    {
      config,
      schema: {
        tags,
        summary: 'Set the low-stock threshold of a SKU (null: not watched)',
        params: skuIdParams,
        body: thresholdBody,
        response: answers(inventorySku, 'write', 'login', 'forbidden', 'notFound'),
      },
    },
    async (request) =>
      ok(await setLowStockThreshold(actingContext(request), request.params.id, request.body.low_stock_threshold)),
  );
};
