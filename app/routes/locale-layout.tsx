import { Outlet, redirect } from 'react-router';
import { isLocale } from '../../i18n/locales';
import { preferredLocale } from '~/lib/locale';
import type { Route } from './+types/locale-layout';

/** Validates the locale segment; any other first segment is a path without one, so it gets the preferred locale. */
export function loader({ params, request }: Route.LoaderArgs) {
  if (!isLocale(params.locale)) {
    const url = new URL(request.url);
    throw redirect(`/${preferredLocale(request)}${url.pathname}${url.search}`);
  }
  return null;
}

export default function LocaleLayout() {
  return <Outlet />;
}
