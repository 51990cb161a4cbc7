import { translate } from '../../i18n';
import { orderIdOf, ownOrderDetail } from '~/components/checkout/orders.server';
import { ResultPage } from '~/components/checkout/result-page';
import { routeLocale } from '~/lib/locale';
import { pageMeta } from '~/lib/seo';
import { requireSessionUser } from '~/lib/session';
import type { Route } from './+types/result';

/** /{locale}/result/success and /result/fail (?order_id=), under the guard layout. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = requireSessionUser(context);
  const url = new URL(request.url);
  const locale = routeLocale(params);
  const order = await ownOrderDetail(context, user.id, orderIdOf(url.searchParams.get('order_id')), locale);
  // Back from a gateway that signs its return (Alipay): ask it now rather than wait for its notify.
  await context.services.paymentReturns.checkGatewayReturn(context.ctx, {
    orderId: order.id,
    params: url.searchParams,
  });
  const status = await context.services.payments.paymentStatus(context.ctx, order.id);
  return { order, status, expected: url.pathname.endsWith('/fail') ? ('fail' as const) : ('success' as const) };
}

export const meta: Route.MetaFunction = ({ matches, params, data }) => [
  ...pageMeta(matches, {
    title: translate(routeLocale(params), data?.expected === 'fail' ? 'result.failTitle' : 'result.successTitle'),
  }),
  { name: 'robots', content: 'noindex' },
];

export default function Result({ loaderData }: Route.ComponentProps) {
  return (
    <ResultPage
      key={loaderData.order.id}
      order={loaderData.order}
      initial={loaderData.status}
      expected={loaderData.expected}
    />
  );
}
