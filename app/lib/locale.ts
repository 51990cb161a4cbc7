import { DEFAULT_LOCALE, isLocale, type Locale } from '../../i18n/locales';

export const LOCALE_COOKIE = 'lang';
export const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/** `/` and un-prefixed paths go to the locale from the `lang` cookie, else Chinese (SPEC section 1). */
export function preferredLocale(request: Request): Locale {
  const fromCookie = readCookie(request.headers.get('cookie'), LOCALE_COOKIE);
  return isLocale(fromCookie) ? fromCookie : DEFAULT_LOCALE;
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
