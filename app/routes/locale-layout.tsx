import { data, Outlet, redirect } from 'react-router';
import { isLocale } from '../../i18n/locales';
import { RouteErrorPage } from '~/components/layout/error-page';
import { preferredLocale } from '~/lib/request-cookies.server';
import type { Route } from './+types/locale-layout';

const FILE_PATH = /\.[a-z0-9]{2,5}$/i;

/**
 * Validates the locale segment; any other first segment is a path without one, so it gets
 * the preferred locale. (The `lang` cookie that remembers a visited page's language is set
 * by server/http/storefront.ts, outside the render, so cached pages carry no Set-Cookie.)
 */
export function loader({ params, request }: Route.LoaderArgs) {
  if (!isLocale(params.locale)) {
    const url = new URL(request.url);
    // A missing file (/favicon.ico, /brand/x.svg) is simply not there; only pages get a locale.
    if (FILE_PATH.test(url.pathname)) throw data(`Page Not Found: ${url.pathname}`, { status: 404 });
    throw redirect(`/${preferredLocale(request)}${url.pathname}${url.search}`);
  }
  return null;
}

export default function LocaleLayout() {
  return <Outlet />;
}

/** Errors inside a locale render here, so the header and footer of the root shell stay. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorPage error={error} />;
}
