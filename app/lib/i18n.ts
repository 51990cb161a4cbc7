import { useLocation, useRouteLoaderData } from 'react-router';
import { translator, type Translate } from '../../i18n';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../../i18n/locales';

/**
 * The locale of the page being shown: the root loader's, else the URL's (an error page
 * rendered without root data), else the default.
 */
export function useLocale(): Locale {
  const data = useRouteLoaderData('root') as { locale?: Locale } | undefined;
  const fromPath = useLocation().pathname.split('/')[1];
  return data?.locale ?? (isLocale(fromPath) ? fromPath : DEFAULT_LOCALE);
}

export function useT(): Translate {
  return translator(useLocale());
}

/** Prefixes an app path with the current locale: localePath('en', '/faq') -> '/en/faq'. */
export function localePath(locale: Locale, path: string): string {
  return `/${locale}${path === '/' ? '/' : path}`;
}

/**
 * The current path without a trailing slash, plus the query. The server render sees `/en/`
 * as `/en` while the browser keeps the slash; normalising keeps the links built from the
 * path identical on both sides, so hydration matches.
 */
export function useCurrentPath(): { pathname: string; search: string; hash: string } {
  const { pathname, search, hash } = useLocation();
  return { pathname: pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname, search, hash };
}

/** The `lang` attribute value for a locale. */
export function htmlLang(locale: Locale): string {
  return locale === 'zh-cn' ? 'zh-CN' : 'en';
}
