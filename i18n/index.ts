import { accountUiMessages } from './messages/account-ui';
import { accountMessages } from './messages/accounts';
import { addressMessages } from './messages/addresses';
import { checkoutUiMessages } from './messages/checkout-ui';
import { catalogMessages } from './messages/catalog';
import { errorMessages } from './messages/errors';
import { fieldMessages } from './messages/fields';
import { orderMessages } from './messages/orders';
import { listingMessages } from './messages/storefront-catalog';
import { paymentMessages } from './messages/payments';
import { productPageMessages } from './messages/product-page';
import { shellMessages } from './messages/shell';
import { type Locale, DEFAULT_LOCALE, FALLBACK_LOCALE } from './locales';

export * from './locales';

const areas = [
  errorMessages,
  fieldMessages,
  shellMessages,
  catalogMessages,
  listingMessages,
  productPageMessages,
  accountMessages,
  accountUiMessages,
  addressMessages,
  orderMessages,
  paymentMessages,
  checkoutUiMessages,
] as const;

type AreaKeys<A> = A extends { en: infer T } ? keyof T : never;
export type MessageKey = AreaKeys<(typeof areas)[number]>;
export type MessageParams = Record<string, string | number>;

const catalog: Record<Locale, Record<string, string>> = {
  en: Object.assign({}, ...areas.map((area) => area.en)),
  'zh-cn': Object.assign({}, ...areas.map((area) => area['zh-cn'])),
};

export function hasMessage(key: string): key is MessageKey {
  return key in catalog[FALLBACK_LOCALE];
}

export function translate(locale: Locale, key: MessageKey, params?: MessageParams): string {
  const template = catalog[locale]?.[key] ?? catalog[FALLBACK_LOCALE][key] ?? catalog[DEFAULT_LOCALE][key] ?? key;
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}

export type Translate = (key: MessageKey, params?: MessageParams) => string;

export function translator(locale: Locale): Translate {
  return (key, params) => translate(locale, key, params);
}
