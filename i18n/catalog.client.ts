import { type Locale } from './locales';
import type { MessagePack } from './packs';

/**
 * The browser's message catalogue (vite.config.ts puts it in place of ./catalog.ts): empty
 * until packs arrive. Each pack is a separate chunk per locale, generated at build time from
 * the area files, so a page downloads one language's strings for what it shows.
 */
const catalog: Partial<Record<Locale, Record<string, string>>> = {};
const loaded = new Map<string, Promise<void>>();

const PACK_CHUNKS: Record<`${Locale}/${MessagePack}`, () => Promise<{ default: Record<string, string> }>> = {
  'en/storefront': () => import('virtual:message-pack/en/storefront'),
  'en/browse': () => import('virtual:message-pack/en/browse'),
  'en/account': () => import('virtual:message-pack/en/account'),
  'en/admin': () => import('virtual:message-pack/en/admin'),
  'zh-cn/storefront': () => import('virtual:message-pack/zh-cn/storefront'),
  'zh-cn/browse': () => import('virtual:message-pack/zh-cn/browse'),
  'zh-cn/account': () => import('virtual:message-pack/zh-cn/account'),
  'zh-cn/admin': () => import('virtual:message-pack/zh-cn/admin'),
};

export function lookupMessage(locale: Locale, key: string): string | undefined {
  const message = catalog[locale]?.[key];
  if (message === undefined) console.error(`Message "${key}" is not loaded for ${locale} (i18n/packs.ts)`);
  return message;
}

export function isKnownMessage(key: string): boolean {
  return Object.values(catalog).some((messages) => key in messages);
}

/** Loads packs for a locale once; later calls for the same packs resolve at once. */
export function loadMessagePacks(locale: Locale, packs: readonly MessagePack[]): Promise<void> {
  return Promise.all(
    packs.map((pack) => {
      const id = `${locale}/${pack}` as const;
      let pending = loaded.get(id);
      if (!pending) {
        pending = PACK_CHUNKS[id]().then(({ default: messages }) => {
          catalog[locale] = { ...catalog[locale], ...messages };
        });
        pending.catch(() => loaded.delete(id));
        loaded.set(id, pending);
      }
      return pending;
    }),
  ).then(() => undefined);
}
