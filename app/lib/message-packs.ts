import { useMatches } from 'react-router';
import { loadMessagePacks } from '../../i18n';
import { DEFAULT_LOCALE, isLocale, normalizeLocale, type Locale } from '../../i18n/locales';
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

/**
 * A route's `clientLoader` body for a route whose texts are in `packs`: in the browser the
 * packs load alongside the page's data, and the page (or its error boundary) renders once
 * both are here. (On the first page the server names the packs in <html
 * data-message-packs> and app/entry.client.tsx loads them before hydrating.)
 */
export async function withMessagePacks<T>(
  { serverLoader, params }: { serverLoader: () => Promise<T>; params: { locale?: string } },
  packs: readonly MessagePack[],
): Promise<T> {
  const packsLoaded = loadMessagePacks(isLocale(params.locale) ? params.locale : DEFAULT_LOCALE, packs);
  try {
    return await serverLoader();
  } finally {
    // Also when the loader throws: the error boundary (the login guard's modal) shows texts of the packs too.
    await packsLoaded;
  }
}
