import { pageMeta } from '~/lib/seo';
import { useT } from '~/lib/i18n';
import type { Route } from './+types/home';

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches);

export default function Home() {
  const t = useT();
  return (
    <main id="main">
      <h1>{t('nav.shop')}</h1>
    </main>
  );
}
