// A CommonJS module: the bundled server (plain Node ESM) only sees its default export.
import isoCountries from 'i18n-iso-countries';
import { z } from 'zod';
import { mediaAddress } from '../../shared/content-blocks';
import { CURRENCIES } from '../../shared/money';
import { multiLineText, singleLineText } from '../../shared/text';

/** A text in both languages; `min` 1 makes both required. */
export function localizedField(max: number, min = 0) {
  return z.object({ en: singleLineText(max).min(min), 'zh-cn': singleLineText(max).min(min) });
}

/** An image setting: a file the shop serves or an https address. */
const imageAddress = mediaAddress.min(1);

const countryCode = z
  .string()
  .regex(/^[A-Z]{2}$/, 'validation.countryCode')
  .refine((code) => isoCountries.isValid(code), 'validation.countryCode');

function distinct<T>(list: readonly T[]): boolean {
  return new Set(list).size === list.length;
}

/**
 * What the settings screen may change (SPEC section 3 plus the announcement and the order
 * timers). Every field is optional: a save names what it changes. The settlement currency
 * and exchange rates are not here (the currencies screen).
 */
export const siteSettingsChanges = z
  .strictObject({
    shop_name: localizedField(60, 1),
    logo: imageAddress,
    seo_image: imageAddress,
    seo_title: localizedField(120, 1),
    seo_keyword: localizedField(300),
    seo_description: localizedField(500),
    client_id: singleLineText(200).regex(/^$|^[\w-]+\.apps\.googleusercontent\.com$/, 'validation.googleClientId'),
    analysis_code: multiLineText(20_000),
    country_list: z.array(countryCode).min(1).max(250).refine(distinct, 'validation.listRepeats'),
    display_currencies: z.array(z.enum(CURRENCIES)).min(1).refine(distinct, 'validation.listRepeats'),
    contact_email: z.email().max(320),
    contact_phone: singleLineText(40),
    announcement: localizedField(200),
    order_payment_timeout_minutes: z
      .number()
      .int()
      .min(5)
      .max(7 * 24 * 60)
      .nullable(),
    order_auto_confirm_days: z.number().int().min(1).max(365).nullable(),
  })
  .partial()
  .refine((changes) => Object.keys(changes).length > 0, 'validation.nothingToSave');
export type SiteSettingsChanges = z.infer<typeof siteSettingsChanges>;

/** The keys the settings screen edits, in the order it shows them. */
export const EDITABLE_SETTING_KEYS = [
  'shop_name',
  'logo',
  'seo_image',
  'seo_title',
  'seo_keyword',
  'seo_description',
  'client_id',
  'analysis_code',
  'country_list',
  'display_currencies',
  'contact_email',
  'contact_phone',
  'announcement',
  'order_payment_timeout_minutes',
  'order_auto_confirm_days',
] as const satisfies ReadonlyArray<keyof SiteSettingsChanges>;

const localizedView = z.object({ en: z.string(), 'zh-cn': z.string() });

/** `GET /v1/admin/settings`: every editable setting, the settlement currency, and what the timers fall back to. */
export const siteSettingsEditorView = z.object({
  shop_name: localizedView,
  logo: z.string(),
  seo_image: z.string(),
  seo_title: localizedView,
  seo_keyword: localizedView,
  seo_description: localizedView,
  client_id: z.string(),
  analysis_code: z.string(),
  country_list: z.array(z.string()),
  display_currencies: z.array(z.enum(CURRENCIES)),
  contact_email: z.string(),
  contact_phone: z.string(),
  announcement: localizedView,
  order_payment_timeout_minutes: z.number().int().nullable().describe('null: the environment default applies'),
  order_auto_confirm_days: z.number().int().nullable().describe('null: the environment default applies'),
  settlement_currency: z.enum(CURRENCIES),
  timer_defaults: z
    .object({ order_payment_timeout_minutes: z.number().int(), order_auto_confirm_days: z.number().int() })
    .describe('ORDER_PAYMENT_TIMEOUT_MINUTES and ORDER_AUTO_CONFIRM_DAYS, used while a timer is null'),
});
export type SiteSettingsEditorView = z.infer<typeof siteSettingsEditorView>;
