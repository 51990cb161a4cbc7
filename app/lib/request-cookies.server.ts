import { DEFAULT_LOCALE, isLocale, type Locale } from '../../i18n/locales';
import { parseCookies, type CookieJar } from '../../server/shared/cookies';
import { LOCALE_COOKIE } from './locale';

const jars = new WeakMap<Request, CookieJar>();

/**
 * A page request's cookies, read by the shop's one cookie parser (server/shared/cookies.ts),
 * so a loader sees the same names and values as the response cache and the sign-in did.
 * A value that is not valid percent-encoding comes back as sent and fails the caller's check.
 */
export function requestCookies(request: Request): CookieJar {
  let jar = jars.get(request);
  if (!jar) jars.set(request, (jar = parseCookies(request.headers.get('cookie'))));
  return jar;
}

/** `/` and un-prefixed paths go to the locale from the `lang` cookie, else Chinese (SPEC section 1). */
export function preferredLocale(request: Request): Locale {
  const fromCookie = requestCookies(request)[LOCALE_COOKIE];
  return isLocale(fromCookie) ? fromCookie : DEFAULT_LOCALE;
}
