import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  shippingPreview,
  shippingPreviewBody,
  shippingRulesBody,
  shippingRulesView,
} from '../../domains/shipping/shipping-editor.schemas';
import {
  getShippingRules,
  previewShippingFee,
  replaceShippingRules,
} from '../../domains/shipping/shipping-editor.service';
import { actingContext } from '../admin-api';
import { answers, ok } from '../envelope';

const tags = ['admin'];
const settings = { permission: 'settings:write' } as const;

/** Shipping rules in the console (`settings:write`; docs/console.md, "Shipping rules"). */
export const adminShippingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/shipping',
    {
      config: settings,
      schema: {
        tags,
        summary: 'Shipping zones and the rest-of-world pricing, in settlement minor units',
        response: answers(shippingRulesView, 'login', 'forbidden'),
      },
    },
    async (request) => ok(await getShippingRules(request.ctx)),
  );

  app.put(
    '/shipping',
    {
      config: settings,
      schema: {
        tags,
        summary: 'Replace every shipping rule (audited; retires the cached pages that show the shipping promise)',
        body: shippingRulesBody,
        response: answers(shippingRulesView, 'write', 'login', 'forbidden'),
      },
    },
    async (request) => ok(await replaceShippingRules(actingContext(request), request.body)),
  );

  app.post(
    '/shipping/preview',
    {
      config: settings,
      schema: {
        tags,
        summary: "One parcel's fee under a draft rule set, by the function checkout charges with",
        body: shippingPreviewBody,
        response: answers(shippingPreview, 'write', 'login', 'forbidden'),
      },
    },
    async (request) => ok(previewShippingFee(request.body)),
  );
};
