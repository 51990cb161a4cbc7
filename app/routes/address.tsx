import { translate } from '../../i18n';
import { addressAction } from '~/components/address/address-actions.server';
import { AddressBook } from '~/components/address/address-book';
import { loadAreaOptions } from '~/components/address/areas.server';
import { readForm } from '~/lib/action-result.server';
import { routeLocale } from '~/lib/locale';
import { pageMeta } from '~/lib/seo';
import { requireSessionUser } from '~/lib/session';
import type { Route } from './+types/address';

/** /{locale}/my/address, under the guard layout. */
export async function loader({ context, params }: Route.LoaderArgs) {
  const user = requireSessionUser(context);
  const locale = routeLocale(params);
  const [addresses, countries] = await Promise.all([
    context.services.addresses.listAddresses(context.ctx, { userId: user.id, locale }),
    loadAreaOptions(context, locale),
  ]);
  return { addresses, countries };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = requireSessionUser(context);
  const locale = routeLocale(params);
  return addressAction(context, user.id, locale, await readForm(request, locale));
}

export const meta: Route.MetaFunction = ({ matches, params }) => [
  ...pageMeta(matches, { title: translate(routeLocale(params), 'addressBook.title') }),
  { name: 'robots', content: 'noindex' },
];

export default function AddressPage({ loaderData }: Route.ComponentProps) {
  return <AddressBook addresses={loaderData.addresses} countries={loaderData.countries} />;
}
