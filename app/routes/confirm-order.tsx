import { translate } from '../../i18n';
import { ConfirmPage } from '~/components/checkout/confirm-page';
import { loadConfirm, placeOrderAction } from '~/components/checkout/confirm.server';
import { routeLocale } from '~/lib/locale';
import { pageMeta } from '~/lib/seo';
import { requireSessionUser } from '~/lib/session';
import type { Route } from './+types/confirm-order';

/** /{locale}/order/confirm_order?sku_id=&quantity= (Buy Now) or ?from=cart, under the guard layout. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  return loadConfirm(context, request, requireSessionUser(context).id, routeLocale(params));
}

export async function action({ request, context, params }: Route.ActionArgs) {
  return placeOrderAction(context, request, requireSessionUser(context).id, routeLocale(params));
}

/** A placement refused as the shop is busiest says when to try again (`Retry-After`, ADR 0181). */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get('retry-after');
  return retryAfter ? { 'retry-after': retryAfter } : new Headers();
};

export const meta: Route.MetaFunction = ({ matches, params }) => [
  ...pageMeta(matches, { title: translate(routeLocale(params), 'confirm.title') }),
  { name: 'robots', content: 'noindex' },
];

export default function ConfirmOrder({ loaderData, actionData }: Route.ComponentProps) {
  return <ConfirmPage data={loaderData} refusal={actionData && 'error' in actionData ? actionData : undefined} />;
}
