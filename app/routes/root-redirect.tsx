import { redirect } from 'react-router';
import { preferredLocale } from '~/lib/request-cookies.server';
import type { Route } from './+types/root-redirect';

export function loader({ request }: Route.LoaderArgs) {
  return redirect(`/${preferredLocale(request)}/`, { headers: { vary: 'cookie' } });
}
