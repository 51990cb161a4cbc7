import { useMatches } from 'react-router';
import { DEFAULT_LOCALE, normalizeLocale, type Locale } from '../../i18n/locales';
import { ALWAYS_LOADED_PACK, type MessagePack, type MessagePacksHandle } from '../../i18n/packs';

/** The packs the matched routes need in the browser: always `storefront`, plus what their handles ask for. */
export function useMessagePacks(): MessagePack[] {
  const packs = new Set<MessagePack>([ALWAYS_LOADED_PACK]);
  for (const match of useMatches()) {
    for (const pack of (match.handle as MessagePacksHandle | undefined)?.messagePacks ?? []) packs.add(pack);
  }
  return [...packs];
}

/** The locale the server rendered the document in (its `lang` attribute). */
export function pageLocale(): Locale {
  return normalizeLocale(document.documentElement.lang) ?? DEFAULT_LOCALE;
}
