import { redirect } from 'react-router';
import { preferredLocale } from '~/lib/locale';
import type { Route } from './+types/root-redirect';

export function loader({ request }: Route.LoaderArgs) {
  return redirect(`/${preferredLocale(request)}/`, { headers: { vary: 'cookie' } });
}
