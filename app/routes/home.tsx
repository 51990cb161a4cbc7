import { Hero } from '~/components/home/hero';
import { ServicePromises } from '~/components/home/service-promises';
import { pageMeta } from '~/lib/seo';
import type { Route } from './+types/home';

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches);

/** Home: the hero, then the shop itself (`#shop`); product sections are added below the promises. */
export default function Home() {
  return (
    <>
      <Hero />
      <div id="shop" className="home-sections">
        <ServicePromises />
      </div>
    </>
  );
}
