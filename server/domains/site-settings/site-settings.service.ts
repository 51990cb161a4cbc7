import { sql } from 'drizzle-orm';
import { pickText, type Locale } from '../../../i18n/locales';
import { siteSettings } from '../../db/schema';
import type { AppContext } from '../../context';
import { bumpContentVersion, keptUntilContentChanges } from '../../shared/content-version';
import { rateValues, storedExchangeRates } from '../exchange-rates/exchange-rates.service';
import { DEFAULT_SITE_SETTINGS, type SiteSettings } from './site-settings.defaults';
import type { SeoConfigView, SiteConfigView, SiteManageView } from './site-settings.schemas';

/** Settings change rarely and are read on every page: each process keeps them until a change. */
const keptSettings = keptUntilContentChanges(async (ctx): Promise<SiteSettings> => {
  const rows = await ctx.db.select().from(siteSettings);
  const stored = Object.fromEntries(rows.map((row) => [row.key, row.value]));
  const settings = { ...DEFAULT_SITE_SETTINGS, ...stored } as SiteSettings;
  // Exchange rates live in their own table, with their time and source (ADR 0144).
  const rates = rateValues(await storedExchangeRates(ctx), settings.currency, DEFAULT_SITE_SETTINGS.exchange_rates);
  return { ...settings, exchange_rates: rates };
});

export function getSiteSettings(ctx: AppContext): Promise<SiteSettings> {
  return keptSettings.read(ctx);
}

export async function updateSiteSettings(ctx: AppContext, changes: Partial<SiteSettings>): Promise<SiteSettings> {
  const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
  if (entries.length > 0) {
    await ctx.db
      .insert(siteSettings)
      .values(entries.map(([key, value]) => ({ key, value })))
      .onConflictDoUpdate({ target: siteSettings.key, set: { value: sql`excluded.value`, updatedAt: sql`now()` } });
  }
  await settingsChanged(ctx);
  return getSiteSettings(ctx);
}

/** After a write to `site_settings` has committed: this process forgets its copy, every page is retired. */
export async function settingsChanged(ctx: AppContext): Promise<void> {
  keptSettings.forget();
  await bumpContentVersion(ctx);
}

/**
 * The order timers: the settings where the owner set them, else the environment's
 * ORDER_PAYMENT_TIMEOUT_MINUTES and ORDER_AUTO_CONFIRM_DAYS (ADR 0172).
 */
export async function orderTimers(
  ctx: AppContext,
): Promise<{ paymentTimeoutMinutes: number; autoConfirmDays: number }> {
  const settings = await getSiteSettings(ctx);
  return {
    paymentTimeoutMinutes: settings.order_payment_timeout_minutes ?? ctx.env.ORDER_PAYMENT_TIMEOUT_MINUTES,
    autoConfirmDays: settings.order_auto_confirm_days ?? ctx.env.ORDER_AUTO_CONFIRM_DAYS,
  };
}

/** Writes every default that is not stored yet; never overwrites an operator's change. */
export async function seedSiteSettings(ctx: AppContext): Promise<void> {
  await ctx.db
    .insert(siteSettings)
    .values(
      Object.entries(DEFAULT_SITE_SETTINGS)
        // A null default (an order timer) means "the environment decides": no row.
        .filter(([, value]) => value !== null)
        .map(([key, value]) => ({ key, value })),
    )
    .onConflictDoNothing();
  keptSettings.forget();
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
