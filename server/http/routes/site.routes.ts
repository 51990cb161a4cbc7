import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  getSiteSettings,
  seoConfigView,
  siteConfigView,
  siteManageView,
} from '../../domains/site-settings/site-settings.service';
import { googlePublicConfig } from '../../domains/customers/google.service';
import { envelopeOf, ok } from '../envelope';

const siteManageSchema = z.object({
  seo_image: z.string(),
  seo_title: z.string(),
  seo_keyword: z.string(),
  seo_description: z.string(),
  client_id: z.string(),
  analysis_code: z.string(),
  currency: z.string(),
  country_list: z.array(z.string()),
});

const seoConfigSchema = z.object({ title: z.string(), keyword: z.string(), desc: z.string() });

const siteConfigSchema = z.object({
  appName: z.string(),
  logo: z.string(),
  title: z.string(),
  keyword: z.string(),
  desc: z.string(),
  client: z.number().int(),
  analysis_code: z.string(),
  currency: z.string(),
  country_list: z.array(z.string()),
  exchange_rates: z.record(z.string(), z.number()),
  baseApiUrl: z.string(),
  imageUploadUrl: z.string(),
  contact_email: z.string(),
  contact_phone: z.string(),
});

/** SPEC section 7's three settings reads; docs/api.md says which answers what. */
export const siteRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/siteManage',
    { config: { publicCache: true }, schema: { tags: ['site'], summary: 'Site settings: SEO, analytics, currency, countries', response: { 200: envelopeOf(siteManageSchema) } } },
    // `client_id` is the Google client id the server verifies against (GOOGLE_CLIENT_ID); empty hides Google sign-in.
    async (request) => ok({ ...siteManageView(await getSiteSettings(request.ctx), request.ctx.locale), client_id: googlePublicConfig(request.ctx.env).client_id }),
  );
  app.get(
    '/sys/conf',
    { config: { publicCache: true }, schema: { tags: ['site'], summary: 'SEO configuration for page heads', response: { 200: envelopeOf(seoConfigSchema) } } },
    async (request) => ok(seoConfigView(await getSiteSettings(request.ctx), request.ctx.locale)),
  );
  app.get(
    '/config',
    { schema: { tags: ['site'], summary: 'Site and app configuration', response: { 200: envelopeOf(siteConfigSchema) } } },
    async (request) => ok(siteConfigView(await getSiteSettings(request.ctx), request.ctx.locale, request.ctx.client)),
  );
};
