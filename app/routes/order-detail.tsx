import { data } from 'react-router';
import { z } from 'zod';
import { translate } from '../../i18n';
import { orderIdOf, ownOrderDetail } from '~/components/checkout/orders.server';
import { formFields, parseForm, readForm, runAction } from '~/lib/action-result.server';
import { routeLocale } from '~/lib/locale';
import { OrderDetailPage } from '~/components/orders/order-detail';
import { RouteErrorPage } from '~/components/layout/error-page';
import { pageMeta } from '~/lib/seo';
import { requireSessionUser } from '~/lib/session';
import { PAY_STATUS } from '../../server/shared/order-status';
import type { Route } from './+types/order-detail';

/**
 * /{locale}/my/order/{id}, under the guard layout: the order and, once shipped, its tracking
 * events; whether an after-sale request can still be opened on it, and its requests.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  const user = requireSessionUser(context);
  const locale = routeLocale(params);
  const order = await ownOrderDetail(context, user.id, orderIdOf(params.id), locale);
  const { afterSales, orders } = context.services;
  const [events, requestable, cases] = await Promise.all([
    order.shipment
      ? orders
          .getOrderExpress(context.ctx, { userId: user.id, id: order.id, locale })
          .then((express) => express.events)
          .catch(() => [])
      : [],
    afterSales.requestableOrderIds(context.ctx, user.id, [order.id]),
    // Only a paid order can have cases.
    order.pay_status === PAY_STATUS.paid
      ? afterSales
          .listAfterSales(context.ctx, { userId: user.id, orderId: order.id, page: 1, page_size: 100, locale })
          .then((page) => page.records)
      : [],
  ]);
  return { order, events, canRequestAfterSale: requestable.has(order.id), cases };
}

/** The order page's closed set of intents: cancel (status 1) or confirm receipt (status 20). */
const orderForm = z.object({ intent: z.enum(['cancel', 'confirm']) });

/** intent=cancel or intent=confirm, through services.orders; any other intent is a 400. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const user = requireSessionUser(context);
  const locale = routeLocale(params);
  const id = orderIdOf(params.id);
  const parsed = parseForm(locale, orderForm, formFields(await readForm(request, locale)));
  if (!parsed.ok) return data({ ok: false, error: parsed.error }, { status: 400 });
  const { intent } = parsed.data;
  const { orders } = context.services;
  const result = await runAction(locale, async () => {
    if (intent === 'cancel') await orders.cancelOrderByBuyer(context.ctx, { userId: user.id, id });
    else await orders.confirmReceipt(context.ctx, { userId: user.id, id });
  });
  return result.ok ? { ok: true, done: intent } : { ok: false, error: result.error };
}

export const meta: Route.MetaFunction = ({ matches, params }) => [
  ...pageMeta(matches, { title: translate(routeLocale(params), 'order.detail.title') }),
  { name: 'robots', content: 'noindex' },
];

export default function OrderDetailRoute({ loaderData }: Route.ComponentProps) {
  return (
    <OrderDetailPage
      order={loaderData.order}
      events={loaderData.events}
      canRequestAfterSale={loaderData.canRequestAfterSale}
      cases={loaderData.cases}
    />
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorPage error={error} />;
}
