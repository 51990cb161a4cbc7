import { translate } from '../../i18n';
import { AfterSaleRequestPage } from '~/components/after-sales/request-form';
import { orderIdParam, ownOr404, requestAfterSale } from '~/components/after-sales/after-sale-actions.server';
import { RouteErrorPage } from '~/components/layout/error-page';
import { routeLocale } from '~/lib/locale';
import { pageMeta } from '~/lib/seo';
import { requireSessionUser } from '~/lib/session';
import type { Route } from './+types/after-sale-request';

/**
 * /{locale}/my/order/{id}/after-sale, in the account area: what can be asked on the buyer's own
 * order (another buyer's is the 404 page), and a fresh idempotency key for this request.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  const user = requireSessionUser(context);
  const orderId = orderIdParam(params.id);
  const options = await ownOr404(() =>
    context.services.afterSales.afterSaleOptionsFor(context.ctx, {
      userId: user.id,
      orderId,
      locale: routeLocale(params),
    }),
  );
  return { options, idempotencyKey: crypto.randomUUID() };
}

/** Sends the request (services.afterSales.createAfterSale), then the case's page; a refusal comes back as messages. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const user = requireSessionUser(context);
  return requestAfterSale(context, request, {
    userId: user.id,
    orderId: orderIdParam(params.id),
    locale: routeLocale(params),
  });
}

export const meta: Route.MetaFunction = ({ matches, params }) => [
  ...pageMeta(matches, { title: translate(routeLocale(params), 'afterSaleUi.request.title') }),
  { name: 'robots', content: 'noindex' },
];

export default function AfterSaleRequestRoute({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <AfterSaleRequestPage
      key={loaderData.options.order_id}
      options={loaderData.options}
      idempotencyKey={loaderData.idempotencyKey}
      answer={actionData}
    />
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorPage error={error} />;
}
