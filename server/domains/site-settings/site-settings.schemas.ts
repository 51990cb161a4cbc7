import { z } from 'zod';

/** `GET /v1/siteManage`: what the storefront needs for SEO, analytics and checkout. */
export const siteManageView = z.object({
  seo_image: z.string(),
  seo_title: z.string(),
  seo_keyword: z.string(),
  seo_description: z.string(),
  client_id: z.string().describe('the Google client id sign-in is verified against; empty hides Google sign-in'),
  analysis_code: z.string(),
  currency: z.string().describe('the settlement currency'),
  country_list: z.array(z.string()).describe('ISO 3166-1 alpha-2 codes of the countries the shop ships to'),
});
export type SiteManageView = z.infer<typeof siteManageView>;

/** `GET /v1/sys/conf`: the SEO triple of every page head. */
export const seoConfigView = z.object({ title: z.string(), keyword: z.string(), desc: z.string() });
export type SeoConfigView = z.infer<typeof seoConfigView>;

/** `GET /v1/config`: the site configuration of SPEC section 3 plus the app config. */
export const siteConfigView = z.object({
  appName: z.string(),
  logo: z.string(),
  title: z.string(),
  keyword: z.string(),
  desc: z.string(),
  client: z.number().int().describe('the `client` request header (default 4)'),
  analysis_code: z.string(),
  currency: z.string(),
  country_list: z.array(z.string()),
  exchange_rates: z.record(z.string(), z.number()).describe('display-currency units per settlement unit'),
  baseApiUrl: z.string(),
  imageUploadUrl: z.string(),
  contact_email: z.string(),
  contact_phone: z.string(),
});
export type SiteConfigView = z.infer<typeof siteConfigView>;
