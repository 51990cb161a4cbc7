import type { MESSAGE_AREAS } from './areas';
import { isKnownMessage, lookupMessage } from './catalog';
import type { Locale } from './locales';

export * from './locales';
export { loadMessagePacks } from './catalog';

type AreaKeys<A> = A extends { en: infer T } ? keyof T : never;
export type MessageKey = AreaKeys<(typeof MESSAGE_AREAS)[keyof typeof MESSAGE_AREAS]>;
export type MessageParams = Record<string, string | number>;

export function hasMessage(key: string): key is MessageKey {
  return isKnownMessage(key);
}

export function translate(locale: Locale, key: MessageKey, params?: MessageParams): string {
  const template = lookupMessage(locale, key) ?? key;
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}

export type Translate = (key: MessageKey, params?: MessageParams) => string;

export function translator(locale: Locale): Translate {
  return (key, params) => translate(locale, key, params);
}
