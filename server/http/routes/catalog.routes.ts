import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  groupDetail,
  groupNode,
  homeSection,
  idParams,
  listedProduct,
  productDetail,
  productListQuery,
  productPage,
} from '../../domains/catalog/catalog.schemas';
import { categoryTree, getGroup } from '../../domains/catalog/groups.service';
import { getProduct, homeSections, listedProductIds, listProducts } from '../../domains/catalog/products.service';
import { NotFoundError } from '../../shared/errors';
import { answers, ok } from '../envelope';

/** The catalogue API of SPEC section 7. docs/api.md says what list 1, list 2 and GetldList are. */
export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/goodGroup/list/1',
    {
      config: { publicCache: true },
      schema: {
        tags: ['catalogue'],
        summary: 'Home-page sections: each collection with its first products',
        response: answers(z.array(homeSection)),
      },
    },
    async (request) => ok(await homeSections(request.ctx, request.ctx.locale)),
  );

  app.get(
    '/goodGroup/list/2',
    {
      config: { publicCache: true },
      schema: {
        tags: ['catalogue'],
        summary: 'The category tree (navigation)',
        response: answers(z.array(groupNode)),
      },
    },
    async (request) => ok(await categoryTree(request.ctx, request.ctx.locale)),
  );

  app.get(
    '/goodGroup/:id',
    {
      config: { publicCache: true },
      schema: {
        tags: ['catalogue'],
        summary: 'One product group',
        params: idParams,
        response: answers(groupDetail, 'invalid', 'notFound'),
      },
    },
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
        response: answers(productPage, 'invalid'),
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
        response: answers(z.array(listedProduct)),
      },
    },
    async (request) => ok(await listedProductIds(request.ctx)),
  );

  app.get(
    '/good/:id',
    {
      config: { publicCache: true },
      schema: {
        tags: ['catalogue'],
        summary: 'One product with properties and SKUs',
        params: idParams,
        response: answers(productDetail, 'invalid', 'notFound'),
      },
    },
    async (request) => {
      const product = await getProduct(request.ctx, request.params.id, request.ctx.locale);
      if (!product) throw new NotFoundError('catalog.productNotFound');
      return ok(product);
    },
  );
};
