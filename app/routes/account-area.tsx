import { Outlet } from 'react-router';
import { AccountNav, type AccountAreaData } from '~/components/account/account-nav';
import { requireSessionUser } from '~/lib/session';
import type { Route } from './+types/account-area';

/**
 * The account pages (My Orders and an order, the address book, the profile) around their
 * navigation, with the order counts of its status links. Under the guard layout: rendered per
 * buyer and never shared, so the counts may be in the HTML (a render is kept for the buyer's
 * own session only, until anything it shows changes: server/http/private-page-cache.ts).
 */
export async function loader({ context }: Route.LoaderArgs): Promise<AccountAreaData> {
  const user = requireSessionUser(context);
  return { counts: await context.services.afterSales.orderTabCounts(context.ctx, user.id) };
}

export default function AccountArea({ loaderData }: Route.ComponentProps) {
  return (
    <div className="container account-area">
      <AccountNav counts={loaderData.counts} variant="page" />
      <div className="account-area__main">
        <Outlet />
      </div>
    </div>
  );
}
