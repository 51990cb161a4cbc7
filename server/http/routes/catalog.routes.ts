import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams, productListQuery } from '../../domains/catalog/catalog.schemas';
import { categoryTree, getGroup } from '../../domains/catalog/groups.service';
import { getProduct, homeSections, listedProductIds, listProducts } from '../../domains/catalog/products.service';
import { NotFoundError } from '../../shared/errors';
import { envelopeOf, ok } from '../envelope';

const currency = z.enum(['CNY', 'USD', 'EUR', 'JPY', 'GBP']);
const image = z.object({ url: z.string(), width: z.number().int(), height: z.number().int(), alt: z.string() });
const productCard = z.object({
  id: z.number().int(),
  name: z.string(),
  image: image.nullable(),
  price: z.string().describe('lowest SKU price as a decimal string in `currency`'),
  price_minor: z.number().int().describe('the same price in minor units (fen, cents; yen have none)'),
  currency,
  sold: z.number().int(),
  in_stock: z.boolean(),
  swatches: z.array(z.object({ value_id: z.number().int(), name: z.string(), color: z.string(), image: z.string().nullable() })),
});
type GroupNodeShape = {
  id: number;
  slug: string;
  name: string;
  description: string;
  image: string | null;
  parent_id: number | null;
  leaf: boolean;
  children: GroupNodeShape[];
};
const groupNode: z.ZodType<GroupNodeShape> = z.lazy(() =>
  z.object({
    id: z.number().int(),
    slug: z.string(),
    name: z.string(),
    description: z.string(),
    image: z.string().nullable(),
    parent_id: z.number().int().nullable(),
    leaf: z.boolean(),
    children: z.array(groupNode),
  }),
);
const homeSection = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  image: z.string().nullable(),
  products: z.array(productCard),
});
const groupDetail = z.object({
  id: z.number().int(),
  slug: z.string(),
  kind: z.enum(['category', 'collection']),
  name: z.string(),
  description: z.string(),
  image: z.string().nullable(),
  parent_id: z.number().int().nullable(),
  leaf: z.boolean(),
  children: z.array(groupNode),
  breadcrumb: z.array(z.object({ id: z.number().int(), name: z.string() })),
  updated_at: z.string(),
});
const productDetail = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  images: z.array(image),
  property: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      values: z.array(z.object({ id: z.number().int(), name: z.string(), swatch: z.string().nullable(), image: z.string().nullable() })),
    }),
  ),
  good_sku: z.array(
    z.object({
      id: z.number().int(),
      code: z.string(),
      value_ids: z.array(z.number().int()).describe('one property value id per property'),
      price: z.string(),
      price_minor: z.number().int(),
      currency,
      stock: z.number().int(),
      image: z.string().nullable(),
    }),
  ),
  price_range: z.object({ min: z.string(), max: z.string(), min_minor: z.number().int(), max_minor: z.number().int(), currency }),
  sold: z.number().int(),
  service_notes: z.array(z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)])),
  category: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  updated_at: z.string(),
});

/** The catalogue API of SPEC section 7. docs/api.md says what list 1, list 2 and GetldList are. */
export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/goodGroup/list/1',
    {
      config: { publicCache: true },
      schema: {
        tags: ['catalogue'],
        summary: 'Home-page sections: each collection with its first products',
        response: { 200: envelopeOf(z.array(homeSection)) },
      },
    },
    async (request) => ok(await homeSections(request.ctx, request.ctx.locale)),
  );

  app.get(
    '/goodGroup/list/2',
    { config: { publicCache: true }, schema: { tags: ['catalogue'], summary: 'The category tree (navigation)', response: { 200: envelopeOf(z.array(groupNode)) } } },
    async (request) => ok(await categoryTree(request.ctx, request.ctx.locale)),
  );

  app.get(
    '/goodGroup/:id',
    { config: { publicCache: true }, schema: { tags: ['catalogue'], summary: 'One product group', params: idParams, response: { 200: envelopeOf(groupDetail) } } },
    async (request) => {
      const group = await getGroup(request.ctx, request.params.id, request.ctx.locale);
      if (!group) throw new NotFoundError('catalog.groupNotFound');
      return ok(group);
    },
  );

  app.get(
    '/good/list',
    {
      config: { publicCache: true },
      schema: {
        tags: ['catalogue'],
        summary: 'Products: paged, filtered by group, keyword and price, sorted',
        querystring: productListQuery,
        response: {
          200: envelopeOf(
            z.object({
              records: z.array(productCard),
              total: z.number().int(),
              page: z.number().int(),
              page_size: z.number().int(),
              has_more: z.boolean(),
            }),
          ),
        },
      },
    },
    async (request) => ok(await listProducts(request.ctx, request.query, request.ctx.locale)),
  );

  app.get(
    '/good/GetldList',
    {
      config: { publicCache: true },
      schema: {
        tags: ['catalogue'],
        summary: 'Ids of every listed product with their last change (prefetch, sitemap)',
        response: { 200: envelopeOf(z.array(z.object({ id: z.number().int(), updated_at: z.string() }))) },
      },
    },
    async (request) => ok(await listedProductIds(request.ctx)),
  );

  app.get(
    '/good/:id',
    { config: { publicCache: true }, schema: { tags: ['catalogue'], summary: 'One product with properties and SKUs', params: idParams, response: { 200: envelopeOf(productDetail) } } },
    async (request) => {
      const product = await getProduct(request.ctx, request.params.id, request.ctx.locale);
      if (!product) throw new NotFoundError('catalog.productNotFound');
      return ok(product);
    },
  );
};
