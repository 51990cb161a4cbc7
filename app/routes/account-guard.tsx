import { Outlet } from 'react-router';
import { translate } from '../../i18n';
import type { MessagePacksHandle } from '../../i18n/packs';
import { LoginGuard } from '~/components/account/login-guard';
import { RouteErrorPage } from '~/components/layout/error-page';
import { localeFromPath } from '~/lib/locale';
import { withMessagePacks } from '~/lib/message-packs';
import { pageMeta } from '~/lib/seo';
import { isLoginRequired, requireSessionUser } from '~/lib/session';
import type { Route } from './+types/account-guard';

/**
 * The route guard of SPEC section 2, once for every login-only page: routes/routes.ts puts
 * them (and a not-found catch-all for their prefixes) under this pathless layout. An
 * anonymous visitor gets status 401 and the page frame with the login modal titled 'Login to
 * browse more content' (not closable); after login the page reloads. A 401 is never stored
 * by the response cache, and a logged-in render is never cached at all.
 */
export function loader({ context }: Route.LoaderArgs) {
  requireSessionUser(context);
  return null;
}

/** Login-only pages show account, address and order texts (i18n/packs.ts). */
export const handle = { messagePacks: ['account'] } as const satisfies MessagePacksHandle;

export const clientLoader = (args: Route.ClientLoaderArgs) => withMessagePacks(args, handle.messagePacks);

/** The guard's title and noindex for a refused visit; otherwise the root's tags (pages below set their own). */
export const meta: Route.MetaFunction = ({ matches, error, location }) => {
  if (!isLoginRequired(error)) return matches.find((match) => match?.id === 'root')?.meta ?? [];
  const locale = localeFromPath(location.pathname) ?? 'zh-cn';
  return [
    ...pageMeta(matches, { title: translate(locale, 'account.modal.guardTitle') }),
    { name: 'robots', content: 'noindex' },
  ];
};

export default function AccountGuard() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return isLoginRequired(error) ? <LoginGuard /> : <RouteErrorPage error={error} />;
}
