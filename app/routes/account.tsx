import { translate } from '../../i18n';
import { AccountPage, maskMobile } from '~/components/account/account-page';
import { pageMeta } from '~/lib/seo';
import { requireSessionUser } from '~/lib/session';
import type { Route } from './+types/account';

/** /{locale}/my/account, under the guard layout: the logged-in user's profile. */
export async function loader({ context }: Route.LoaderArgs) {
  const user = requireSessionUser(context);
  return {
    profile: {
      email: user.email,
      username: user.username,
      avatar: user.avatar,
      sex: user.sex,
      mobile: maskMobile((user as { mobile?: string | null }).mobile),
    },
  };
}

export const meta: Route.MetaFunction = ({ matches, params }) => [
  ...pageMeta(matches, { title: translate(params.locale === 'en' ? 'en' : 'zh-cn', 'account.page.title') }),
  { name: 'robots', content: 'noindex' },
];

export default function Account({ loaderData }: Route.ComponentProps) {
  return <AccountPage key={loaderData.profile.email} profile={loaderData.profile} />;
}
