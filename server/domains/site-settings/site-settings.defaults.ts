import type { LocalizedText } from '../../../i18n/locales';
import { RATE_SCALE, type Currency } from '../../shared/money';
import { DEMO_RATE_MICROS, DEMO_RATES_BASE } from '../exchange-rates/demo-rates';

/**
 * Every setting the shop reads, with the value a fresh shop starts from. Stored one row per
 * key in `site_settings`; anything missing from the table falls back to these.
 */
export interface SiteSettings {
  shop_name: LocalizedText;
  logo: string;
  seo_image: string;
  seo_title: LocalizedText;
  seo_keyword: LocalizedText;
  seo_description: LocalizedText;
  /** Google OAuth client id shown to the browser; empty hides Google sign-in. */
  client_id: string;
  /** Raw analytics snippet injected into every page head (SPEC section 7). */
  analysis_code: string;
  /** The settlement currency: what buyers are charged in. */
  currency: Currency;
  /** ISO 3166-1 alpha-2 codes of the countries the shop ships to. */
  country_list: string[];
  /** Units of each display currency per one unit of the settlement currency. */
  exchange_rates: Record<Currency, number>;
  contact_email: string;
  contact_phone: string;
  /** The display currencies buyers may pick (the settlement currency is always offered). */
  display_currencies: Currency[];
  /** The storefront's announcement bar; empty in a language hides it there. */
  announcement: LocalizedText;
  /** Minutes an order waits for payment; null is ORDER_PAYMENT_TIMEOUT_MINUTES (ADR 0172). */
  order_payment_timeout_minutes: number | null;
  /** Days after shipping an order counts as received; null is ORDER_AUTO_CONFIRM_DAYS (ADR 0172). */
  order_auto_confirm_days: number | null;
}

export const DEFAULT_SITE_SETTINGS: SiteSettings = {
  shop_name: { en: 'Lumen & Loom', 'zh-cn': '光织良品' },
  logo: '/brand/logo.svg',
  seo_image: '/brand/icon.png',
  seo_title: {
    en: 'Lumen & Loom | Thoughtful goods, shipped worldwide',
    'zh-cn': '光织良品 | 用心之物，全球直达',
  },
  seo_keyword: {
    en: 'home goods, apparel, ceramics, bags, tea, stationery, worldwide shipping',
    'zh-cn': '家居好物,服饰,陶瓷,箱包,茶饮,文具,全球配送',
  },
  seo_description: {
    en: 'Carefully made clothing, homeware, ceramics, tea and everyday carry, shipped from our studio to buyers around the world.',
    'zh-cn': '精心制作的服饰、家居、陶瓷、茶饮与随身好物，从我们的工作室发往世界各地。',
  },
  client_id: '',
  analysis_code: '',
  currency: 'CNY',
  country_list: ['US', 'GB', 'CA', 'AU', 'DE', 'FR', 'JP', 'SG', 'MY', 'CN'],
  /** Only until the `exchange_rates` table has a currency's row (ADR 0144): the table's rates win. */
  exchange_rates: {
    [DEMO_RATES_BASE]: 1,
    ...(Object.fromEntries(
      Object.entries(DEMO_RATE_MICROS).map(([code, micros]) => [code, micros / Number(RATE_SCALE)]),
    ) as Record<Exclude<Currency, typeof DEMO_RATES_BASE>, number>),
  },
  contact_email: 'hello@lumenloom.example',
  contact_phone: '+86 571 8888 6666',
  display_currencies: ['CNY', 'USD', 'EUR', 'JPY', 'GBP'],
  announcement: { en: '', 'zh-cn': '' },
  order_payment_timeout_minutes: null,
  order_auto_confirm_days: null,
};
