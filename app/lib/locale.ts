import { isLocale, type Locale } from '../../i18n/locales';

export const LOCALE_COOKIE = 'lang';
export const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

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
