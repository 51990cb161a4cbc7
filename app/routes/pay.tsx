import { translate } from '../../i18n';
import { orderIdOf, ownOrderDetail, payAction } from '~/components/checkout/orders.server';
import { PayPage } from '~/components/checkout/pay-page';
import { routeLocale } from '~/lib/locale';
import { pageMeta } from '~/lib/seo';
import { requireSessionUser } from '~/lib/session';
import type { Route } from './+types/pay';

/** /{locale}/order/pay?order_id=, under the guard layout. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = requireSessionUser(context);
  const id = orderIdOf(new URL(request.url).searchParams.get('order_id'));
  const order = await ownOrderDetail(context, user.id, id, routeLocale(params));
  const methods = await context.services.payments.paymentMethodsFor(context.ctx, {
    currency: order.currency,
    displayCurrency: order.display_currency,
    country: order.country_code,
  });
  return { order, methods };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  requireSessionUser(context);
  return payAction(context, request, orderIdOf(new URL(request.url).searchParams.get('order_id')), routeLocale(params));
}

export const meta: Route.MetaFunction = ({ matches, params }) => [
  ...pageMeta(matches, { title: translate(routeLocale(params), 'pay.title') }),
  { name: 'robots', content: 'noindex' },
];

export default function Pay({ loaderData, actionData }: Route.ComponentProps) {
  return <PayPage order={loaderData.order} methods={loaderData.methods} error={actionData?.error} />;
}
