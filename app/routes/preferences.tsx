import { data, redirect } from 'react-router';
import { isLocale } from '../../i18n/locales';
import { isCurrency, type Currency } from '../../server/shared/money';
import { safeRedirectPath } from '../../server/shared/safe-redirect';
import { colorModeCookie, parseColorMode } from '~/lib/color-mode';
import { DISPLAY_CURRENCY_COOKIE, DISPLAY_CURRENCY_MAX_AGE } from '~/lib/currency';
import { readForm } from '~/lib/action-result.server';
import type { Route } from './+types/preferences';

/** The `Set-Cookie` value that remembers a display currency for a year (SameSite=Lax, whole site). */
function displayCurrencyCookie(currency: Currency): string {
  return `${DISPLAY_CURRENCY_COOKIE}=${currency}; Max-Age=${DISPLAY_CURRENCY_MAX_AGE}; Path=/; SameSite=Lax`;
}

/**
 * The visitor's preferences: `colorMode` (light / dark / system) and `currency` (the display
 * currency, one of CNY, USD, EUR, JPY, GBP; anything else is refused). Each field present is
 * remembered in its cookie.
 *
 * Without JavaScript the forms post here with `redirectTo`, and the visitor goes back to the
 * page they were on. With JavaScript the currency picker posts through a fetcher without it:
 * the answer is plain data, and React Router then reloads the page data, which reads the new
 * cookie (the currency is part of the page-cache key, so cached pages stay right).
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const home = `/${isLocale(params.locale) ? params.locale : 'zh-cn'}/`;
  const form = await readForm(request, context.ctx.locale);
  const headers = new Headers();
  let valid = true;
  const colorMode = form.get('colorMode');
  if (typeof colorMode === 'string') headers.append('Set-Cookie', colorModeCookie(parseColorMode(colorMode)));
  const currency = form.get('currency');
  if (currency !== null) {
    if (isCurrency(currency)) headers.append('Set-Cookie', displayCurrencyCookie(currency));
    else valid = false;
  }
  const redirectTo = form.get('redirectTo');
  if (redirectTo === null) return data({ ok: valid }, { status: valid ? 200 : 400, headers });
  // Only a page of this site is followed back (server/shared/safe-redirect.ts); anything else goes home.
  return redirect(safeRedirectPath(redirectTo, new URL(request.url).origin) ?? home, { status: 303, headers });
}

export function loader({ params }: Route.LoaderArgs) {
  return redirect(`/${isLocale(params.locale) ? params.locale : 'zh-cn'}/`);
}
