import { translate } from '../../i18n';
import { AfterSaleCasePage } from '~/components/after-sales/case-page';
import { caseAction, caseIdParam, ownOr404 } from '~/components/after-sales/after-sale-actions.server';
import { RouteErrorPage } from '~/components/layout/error-page';
import { routeLocale } from '~/lib/locale';
import { pageMeta } from '~/lib/seo';
import { requireSessionUser } from '~/lib/session';
import type { Route } from './+types/after-sale-detail';

/** /{locale}/my/after-sale/{id}, in the account area: one of the buyer's cases (another buyer's is the 404 page). */
export async function loader({ context, params }: Route.LoaderArgs) {
  const user = requireSessionUser(context);
  const id = caseIdParam(params.id);
  const detail = await ownOr404(() =>
    context.services.afterSales.getAfterSale(context.ctx, { userId: user.id, id, locale: routeLocale(params) }),
  );
  return { detail };
}

/** intent=cancel, tracking, appeal or confirm, through services.afterSales; any other intent is a 400. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const user = requireSessionUser(context);
  return caseAction(context, request, { userId: user.id, id: caseIdParam(params.id), locale: routeLocale(params) });
}

export const meta: Route.MetaFunction = ({ data, matches, params }) => {
  const locale = routeLocale(params);
  const title = data
    ? translate(locale, 'afterSaleUi.case.titleWithNo', { caseNo: data.detail.case_no })
    : translate(locale, 'afterSaleUi.case.title');
  return [...pageMeta(matches, { title }), { name: 'robots', content: 'noindex' }];
};

export default function AfterSaleDetailRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <AfterSaleCasePage detail={loaderData.detail} answer={actionData} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorPage error={error} />;
}
