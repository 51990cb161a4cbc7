import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  productBody,
  productGroupChoices,
  productIdParams,
  productListQuery,
  productPage,
  productStatusBody,
  productView,
} from '../../domains/catalog/product-editor.schemas';
import {
  createEditorProduct,
  getEditorProduct,
  listEditorProducts,
  productGroupChoiceList,
  setEditorProductStatus,
  updateEditorProduct,
} from '../../domains/catalog/product-editor.service';
import type { Permission } from '../../domains/staff/permissions';
import { ForbiddenError, NotFoundError } from '../../shared/errors';
import { actingContext, signedInStaff } from '../admin-api';
import { answers, ok } from '../envelope';

const tags = ['admin'];
const write = { permission: 'catalog:write' } as const;

/** Who may look at products in the console: catalogue editors, and order handlers who need to see what they sell. */
const READERS: readonly Permission[] = ['catalog:write', 'orders:read'];
const readers = {
  config: { staffAccess: 'signed-in' },
  preHandler: async (request: Parameters<typeof signedInStaff>[0]) => {
    const staff = signedInStaff(request);
    if (staff.mustEnrolSecondFactor) throw new ForbiddenError('admin.error.secondFactorRequired');
    if (!READERS.some((permission) => staff.permissions.has(permission)))
      throw new ForbiddenError('admin.error.permission');
  },
} as const;

/** Products in the console (`catalog:write` to change; docs/console.md, "Products"). */
export const adminProductRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/products',
    {
      ...readers,
      schema: {
        tags,
        summary: 'Products, newest change first: by name or SKU code and status, paged',
        querystring: productListQuery,
        response: answers(productPage, 'invalid', 'login', 'forbidden'),
      },
    },
    async (request) => ok(await listEditorProducts(request.ctx, request.query)),
  );

  app.get(
    '/products/groups',
    {
      ...readers,
      schema: {
        tags,
        summary: 'The groups a product may join (categories and collections)',
        response: answers(productGroupChoices, 'login', 'forbidden'),
      },
    },
    async (request) => ok(await productGroupChoiceList(request.ctx)),
  );

  app.get(
    '/products/:id',
    {
      ...readers,
      schema: {
        tags,
        summary: 'One product as the editor shows it, with the languages still missing per field',
        params: productIdParams,
        response: answers(productView, 'invalid', 'login', 'forbidden', 'notFound'),
      },
    },
    async (request) => {
      const product = await getEditorProduct(request.ctx, request.params.id);
      if (!product) throw new NotFoundError('adminProducts.notFound');
      return ok(product);
    },
  );

  app.post(
    '/products',
    {
      config: write,
      schema: {
        tags,
        summary: 'Create a product (a draft) with its options, SKUs, images and groups',
        body: productBody,
        response: answers(productView, 'write', 'login', 'forbidden'),
      },
    },
    async (request) => ok(await createEditorProduct(actingContext(request), request.body)),
  );

  app.put(
    '/products/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Replace a product; new SKUs get their initial stock, existing ones keep theirs',
        params: productIdParams,
        body: productBody,
        response: answers(productView, 'write', 'login', 'forbidden', 'notFound'),
      },
    },
    async (request) => ok(await updateEditorProduct(actingContext(request), request.params.id, request.body)),
  );

  app.put(
    '/products/:id/status',
    {
      config: write,
      schema: {
        tags,
        summary: 'Publish, unpublish (draft) or archive a product',
        params: productIdParams,
        body: productStatusBody,
        response: answers(productView, 'write', 'login', 'forbidden', 'notFound', 'conflict'),
      },
    },
    async (request) => ok(await setEditorProductStatus(actingContext(request), request.params.id, request.body.status)),
  );
};
