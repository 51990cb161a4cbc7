import { DEFAULT_LOCALE, isLocale, type Locale } from '../../i18n/locales';

export const LOCALE_COOKIE = 'lang';

/**
 * The locale of a route under `/:locale`. The locale layout (app/routes/locale-layout.tsx)
 * sends any other first segment to a localized address, so below it this is one of ours;
 * the default only answers for params that carry no locale at all.
 */
export function routeLocale(params: { locale?: string }): Locale {
  return isLocale(params.locale) ? params.locale : DEFAULT_LOCALE;
}

export function localeFromPath(pathname: string): Locale | undefined {
  const first = pathname.split('/')[1];
  return isLocale(first) ? first : undefined;
}

/** The same page in another language: swaps or adds the locale segment. */
export function switchLocalePath(pathname: string, search: string, to: Locale): string {
  const segments = pathname.split('/');
  if (isLocale(segments[1])) segments[1] = to;
  else segments.splice(1, 0, to);
  const joined = segments.join('/') || `/${to}`;
  return joined + search;
}
