import { sql } from 'drizzle-orm';
import { pickText, type Locale } from '../../../i18n/locales';
import { siteSettings } from '../../db/schema';
import type { AppContext } from '../../context';
import { bumpContentVersion, currentContentVersion } from '../../shared/content-version';
import { DEFAULT_SITE_SETTINGS, type SiteSettings } from './site-settings.defaults';
import type { SeoConfigView, SiteConfigView, SiteManageView } from './site-settings.schemas';

/**
 * Settings change rarely and are read on every page, so each process keeps them until the
 * shared content version moves (every change bumps it), re-reading at most every minute.
 */
const CACHE_MILLISECONDS = 60_000;
let cached: { settings: SiteSettings; loadedAt: number; db: unknown; version: string } | null = null;

export async function getSiteSettings(ctx: AppContext): Promise<SiteSettings> {
  const version = await currentContentVersion(ctx);
  if (
    cached &&
    cached.db === ctx.db &&
    cached.version === version &&
    Date.now() - cached.loadedAt < CACHE_MILLISECONDS
  ) {
    return cached.settings;
  }
  const rows = await ctx.db.select().from(siteSettings);
  const stored = Object.fromEntries(rows.map((row) => [row.key, row.value]));
  const settings = { ...DEFAULT_SITE_SETTINGS, ...stored } as SiteSettings;
  cached = { settings, loadedAt: Date.now(), db: ctx.db, version };
  return settings;
}

export async function updateSiteSettings(ctx: AppContext, changes: Partial<SiteSettings>): Promise<SiteSettings> {
  const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
  if (entries.length > 0) {
    await ctx.db
      .insert(siteSettings)
      .values(entries.map(([key, value]) => ({ key, value })))
      .onConflictDoUpdate({ target: siteSettings.key, set: { value: sql`excluded.value`, updatedAt: sql`now()` } });
  }
  cached = null;
  await bumpContentVersion(ctx);
  return getSiteSettings(ctx);
}

/** Writes every default that is not stored yet; never overwrites an operator's change. */
export async function seedSiteSettings(ctx: AppContext): Promise<void> {
  await ctx.db
    .insert(siteSettings)
    .values(Object.entries(DEFAULT_SITE_SETTINGS).map(([key, value]) => ({ key, value })))
    .onConflictDoNothing();
  cached = null;
}

/** `GET /v1/siteManage`: what the storefront needs for SEO, analytics and checkout. */
export function siteManageView(settings: SiteSettings, locale: Locale): SiteManageView {
  return {
    seo_image: settings.seo_image,
    seo_title: pickText(settings.seo_title, locale),
    seo_keyword: pickText(settings.seo_keyword, locale),
    seo_description: pickText(settings.seo_description, locale),
    client_id: settings.client_id,
    analysis_code: settings.analysis_code,
    currency: settings.currency,
    country_list: settings.country_list,
  };
}

/** `GET /v1/sys/conf`: the SEO triple the server render reads for every page head. */
export function seoConfigView(settings: SiteSettings, locale: Locale): SeoConfigView {
  return {
    title: pickText(settings.seo_title, locale),
    keyword: pickText(settings.seo_keyword, locale),
    desc: pickText(settings.seo_description, locale),
  };
}

/** `GET /v1/config`: the site configuration of SPEC section 3 plus the app config. */
export function siteConfigView(settings: SiteSettings, locale: Locale, client: number): SiteConfigView {
  return {
    appName: pickText(settings.shop_name, locale),
    logo: settings.logo,
    title: pickText(settings.seo_title, locale),
    keyword: pickText(settings.seo_keyword, locale),
    desc: pickText(settings.seo_description, locale),
    client,
    analysis_code: settings.analysis_code,
    currency: settings.currency,
    country_list: settings.country_list,
    exchange_rates: settings.exchange_rates,
    baseApiUrl: '',
    imageUploadUrl: '',
    contact_email: settings.contact_email,
    contact_phone: settings.contact_phone,
  };
}
