import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  getSiteSettings,
  seoConfigView,
  siteConfigView,
  siteManageView,
} from '../../domains/site-settings/site-settings.service';
import {
  seoConfigView as seoConfigSchema,
  siteConfigView as siteConfigSchema,
  siteManageView as siteManageSchema,
} from '../../domains/site-settings/site-settings.schemas';
import { googlePublicConfig } from '../../domains/customers/google.service';
import { answers, ok } from '../envelope';

/** SPEC section 7's three settings reads; docs/api.md says which answers what. */
export const siteRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/siteManage',
    {
      config: { publicCache: true },
      schema: {
        tags: ['site'],
        summary: 'Site settings: SEO, analytics, currency, countries',
        response: answers(siteManageSchema),
      },
    },
    // `client_id` is the Google client id the server verifies against (GOOGLE_CLIENT_ID); empty hides Google sign-in.
    async (request) =>
      ok({
        ...siteManageView(await getSiteSettings(request.ctx), request.ctx.locale),
        client_id: googlePublicConfig(request.ctx.env).client_id,
      }),
  );
  app.get(
    '/sys/conf',
    {
      config: { publicCache: true },
      schema: {
        tags: ['site'],
        summary: 'SEO configuration for page heads',
        response: answers(seoConfigSchema),
      },
    },
    async (request) => ok(seoConfigView(await getSiteSettings(request.ctx), request.ctx.locale)),
  );
  app.get(
    '/config',
    {
      schema: {
        tags: ['site'],
        summary: 'Site and app configuration',
        response: answers(siteConfigSchema),
      },
    },
    async (request) => ok(siteConfigView(await getSiteSettings(request.ctx), request.ctx.locale, request.ctx.client)),
  );
};
