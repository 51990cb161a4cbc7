import { MESSAGE_AREAS } from './areas';
import { DEFAULT_LOCALE, FALLBACK_LOCALE, type Locale, LOCALES } from './locales';
import type { MessagePack } from './packs';

/**
 * The server's message catalogue: every area in every locale, loaded at start. The browser
 * build swaps this module for ./catalog.client.ts (vite.config.ts), which loads packs.
 */
const catalog = Object.fromEntries(
  LOCALES.map((locale) => [locale, Object.assign({}, ...Object.values(MESSAGE_AREAS).map((area) => area[locale]))]),
) as Record<Locale, Record<string, string>>;

/** A key missing in a locale falls back to English, then Chinese. */
export function lookupMessage(locale: Locale, key: string): string | undefined {
  return catalog[locale][key] ?? catalog[FALLBACK_LOCALE][key] ?? catalog[DEFAULT_LOCALE][key];
}

export function isKnownMessage(key: string): boolean {
  return LOCALES.some((locale) => key in catalog[locale]);
}

/** Everything is loaded already on the server. */
export async function loadMessagePacks(_locale: Locale, _packs: readonly MessagePack[]): Promise<void> {}
