import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  couponActiveBody,
  couponBody,
  couponIdParams,
  couponList,
  couponView,
} from '../../domains/coupons/coupon-editor.schemas';
import { createCoupon, listCoupons, setCouponActive, updateCoupon } from '../../domains/coupons/coupon-editor.service';
import { actingContext } from '../admin-api';
import { answers, ok } from '../envelope';

const tags = ['admin'];
const settings = { permission: 'settings:write' } as const;

/** Coupons in the console (`settings:write`; docs/console.md, "Coupons"). */
export const adminCouponRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/coupons',
    {
      config: settings,
      schema: {
        tags,
        summary: 'Every coupon with its usage so far: uses, buyers, discount given',
        response: answers(couponList, 'login', 'forbidden'),
      },
    },
    async (request) => ok(await listCoupons(request.ctx)),
  );

  app.post(
    '/coupons',
    {
      config: settings,
      schema: {
        tags,
        summary: 'Create a coupon (the code is unique, case-insensitively)',
        body: couponBody,
        response: answers(couponView, 'write', 'login', 'forbidden', 'conflict'),
      },
    },
    async (request) => ok(await createCoupon(actingContext(request), request.body)),
  );

  app.put(
    '/coupons/:id',
    {
      config: settings,
      schema: {
        tags,
        summary: 'Replace a coupon; once used, its code, kind and value cannot change',
        params: couponIdParams,
        body: couponBody,
        response: answers(couponView, 'write', 'login', 'forbidden', 'notFound', 'conflict'),
      },
    },
    async (request) => ok(await updateCoupon(actingContext(request), request.params.id, request.body)),
  );

  app.put(
    '/coupons/:id/active',
    {
      config: settings,
      schema: {
        tags,
        summary: 'Disable or enable a coupon (checkout refuses a disabled one)',
        params: couponIdParams,
        body: couponActiveBody,
        response: answers(couponView, 'write', 'login', 'forbidden', 'notFound'),
      },
    },
    async (request) => ok(await setCouponActive(actingContext(request), request.params.id, request.body.active)),
  );
};
