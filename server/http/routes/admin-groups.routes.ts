import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createGroup,
  deleteGroup,
  groupProductsOf,
  listEditableGroups,
  moveGroup,
  pickableProducts,
  setGroupProducts,
  updateGroup,
} from '../../domains/catalog/groups-editor.service';
import {
  createGroupBody,
  deletedGroup,
  editableGroup,
  groupIdParams,
  groupList,
  groupProduct,
  groupProducts,
  groupProductsBody,
  moveGroupBody,
  productPickerQuery,
  updateGroupBody,
} from '../../domains/catalog/groups-editor.schemas';
import { actingContext } from '../admin-api';
import { answers, ok } from '../envelope';

const tags = ['admin'];
const config = { permission: 'catalog:write' } as const;

/**
 * The groups editor (docs/console.md, "Groups and collections"): the category tree and the
 * home sections, their order, and the products in each. Every change is audited and retires
 * the cached pages it affects.
 */
export const adminGroupRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/groups',
    {
      config,
      schema: {
        tags,
        summary: 'Every category and home section, each level in its order, with both languages',
        response: answers(groupList, 'login', 'forbidden'),
      },
    },
    async (request) => ok(await listEditableGroups(request.ctx)),
  );

  app.post(
    '/groups',
    {
      config,
      schema: {
        tags,
        summary: 'Create a category (under a parent, three levels at most) or a home section, last in its level',
        body: createGroupBody,
        response: answers(editableGroup, 'write', 'login', 'forbidden'),
      },
    },
    async (request) => ok(await createGroup(actingContext(request), request.body)),
  );

  app.put(
    '/groups/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Rename (both languages), describe, hide or show a group',
        params: groupIdParams,
        body: updateGroupBody,
        response: answers(editableGroup, 'write', 'login', 'forbidden', 'notFound'),
      },
    },
    async (request) => ok(await updateGroup(actingContext(request), request.params.id, request.body)),
  );

  app.post(
    '/groups/:id/move',
    {
      config,
      schema: {
        tags,
        summary: 'Put a group under another parent and/or at another place among its siblings; answers every group',
        params: groupIdParams,
        body: moveGroupBody,
        response: answers(groupList, 'write', 'login', 'forbidden', 'notFound'),
      },
    },
    async (request) => ok(await moveGroup(actingContext(request), request.params.id, request.body)),
  );

  app.delete(
    '/groups/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a group with no groups under it; its products stay in the catalogue and only leave it',
        params: groupIdParams,
        response: answers(deletedGroup, 'write', 'login', 'forbidden', 'notFound', 'conflict'),
      },
    },
    async (request) => ok(await deleteGroup(actingContext(request), request.params.id)),
  );

  app.get(
    '/groups/:id/products',
    {
      config,
      schema: {
        tags,
        summary: "A group's products in their order",
        params: groupIdParams,
        response: answers(groupProducts, 'invalid', 'login', 'forbidden', 'notFound'),
      },
    },
    async (request) => ok(await groupProductsOf(request.ctx, request.params.id)),
  );

  app.put(
    '/groups/:id/products',
    {
      config,
      schema: {
        tags,
        summary: "Replace a group's products with these, in this order (a category takes them out of their old one)",
        params: groupIdParams,
        body: groupProductsBody,
        response: answers(groupProducts, 'write', 'login', 'forbidden', 'notFound'),
      },
    },
    async (request) => ok(await setGroupProducts(actingContext(request), request.params.id, request.body.product_ids)),
  );

  app.get(
    '/groups/product-picker',
    {
      config,
      schema: {
        tags,
        summary: 'Up to 20 products whose name holds `q` (either language), to add to a group',
        querystring: productPickerQuery,
        response: answers(z.array(groupProduct), 'invalid', 'login', 'forbidden'),
      },
    },
    async (request) => ok(await pickableProducts(request.ctx, request.query.q)),
  );
};
