import { translate } from '../../i18n';
import { routeLocale } from '~/lib/locale';
import { useAccountAreaCounts } from '~/components/account/account-nav';
import { OrderList } from '~/components/orders/order-list';
import { ORDER_TABS, type OrderTab } from '~/lib/order-tabs';
import { pageMeta } from '~/lib/seo';
import { requireSessionUser } from '~/lib/session';
import type { Route } from './+types/orders';

/** /{locale}/my/order?status=&page=, in the account area (which loads the tab counts). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = requireSessionUser(context);
  const url = new URL(request.url);
  const wanted = url.searchParams.get('status') ?? 'all';
  const tab: OrderTab = (ORDER_TABS as readonly string[]).includes(wanted) ? (wanted as OrderTab) : 'all';
  const pageNumber = Math.min(Math.max(Math.floor(Number(url.searchParams.get('page'))) || 1, 1), 10_000);
  const page = await context.services.orders.listOrders(context.ctx, {
    userId: user.id,
    query: { status: tab, page: pageNumber, page_size: 10 },
    locale: routeLocale(params),
  });
  return { tab, page };
}

export const meta: Route.MetaFunction = ({ matches, params }) => [
  ...pageMeta(matches, { title: translate(routeLocale(params), 'orders.title') }),
  { name: 'robots', content: 'noindex' },
];

export default function Orders({ loaderData }: Route.ComponentProps) {
  return <OrderList tab={loaderData.tab} counts={useAccountAreaCounts()} page={loaderData.page} />;
}
