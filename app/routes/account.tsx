import { translate } from '../../i18n';
import { AccountPage } from '~/components/account/account-page';
import { pageMeta } from '~/lib/seo';
import { loginRequired, requireSessionUser } from '~/lib/session';
import type { Route } from './+types/account';

/** /{locale}/my/account, under the guard layout: the logged-in user's profile. */
export async function loader({ context }: Route.LoaderArgs) {
  const { customers } = context.services;
  const row = await customers.findUserById(context.ctx, requireSessionUser(context).id);
  if (!row) throw loginRequired();
  // userView masks the mobile number (SPEC section 9) before it reaches the page.
  const { email, username, avatar, sex, mobile, has_password } = customers.userView(row);
  return {
    profile: { email, username, avatar: avatar || null, sex, mobile: mobile || null, hasPassword: has_password },
  };
}

export const meta: Route.MetaFunction = ({ matches, params }) => [
  ...pageMeta(matches, { title: translate(params.locale === 'en' ? 'en' : 'zh-cn', 'account.page.title') }),
  { name: 'robots', content: 'noindex' },
];

export default function Account({ loaderData }: Route.ComponentProps) {
  return <AccountPage key={loaderData.profile.email} profile={loaderData.profile} />;
}
