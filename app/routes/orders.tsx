import { translate } from '../../i18n';
import { routeLocale } from '~/lib/locale';
import { useAccountAreaCounts } from '~/components/account/account-nav';
import { OrderList } from '~/components/orders/order-list';
import { RouteErrorPage } from '~/components/layout/error-page';
import { ORDER_TABS, type OrderTab } from '~/lib/order-tabs';
import { pageMeta } from '~/lib/seo';
import { requireSessionUser } from '~/lib/session';
import type { Route } from './+types/orders';

/**
 * /{locale}/my/order?status=&page=, in the account area (which loads the tab counts). The
 * After-Sales tab lists the buyer's after-sale cases; the others list orders, each marked when
 * a case can still be opened on it (one query for the page).
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = requireSessionUser(context);
  const locale = routeLocale(params);
  const url = new URL(request.url);
  const wanted = url.searchParams.get('status') ?? 'all';
  const tab: OrderTab = (ORDER_TABS as readonly string[]).includes(wanted) ? (wanted as OrderTab) : 'all';
  const pageNumber = Math.min(Math.max(Math.floor(Number(url.searchParams.get('page'))) || 1, 1), 10_000);
  const { afterSales, orders } = context.services;
  if (tab === 'after_sales') {
    const cases = await afterSales.listAfterSales(context.ctx, {
      userId: user.id,
      page: pageNumber,
      page_size: 10,
      locale,
    });
    return { tab, list: { kind: 'cases' as const, page: cases } };
  }
  const page = await orders.listOrders(context.ctx, {
    userId: user.id,
    query: { status: tab, page: pageNumber, page_size: 10 },
    locale,
  });
  const requestable = await afterSales.requestableOrderIds(
    context.ctx,
    user.id,
    page.records.map((order) => order.id),
  );
  return { tab, list: { kind: 'orders' as const, page, requestable: [...requestable] } };
}

export const meta: Route.MetaFunction = ({ matches, params }) => [
  ...pageMeta(matches, { title: translate(routeLocale(params), 'orders.title') }),
  { name: 'robots', content: 'noindex' },
];

export default function Orders({ loaderData }: Route.ComponentProps) {
  return <OrderList tab={loaderData.tab} counts={useAccountAreaCounts()} list={loaderData.list} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorPage error={error} />;
}
