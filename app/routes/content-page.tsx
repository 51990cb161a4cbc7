import { data } from 'react-router';
import { ContactCard } from '~/components/content/contact-card';
import { ContentBlocks } from '~/components/content/content-blocks';
import { ServicePromisesCard } from '~/components/home/service-promises';
import { PageHeader } from '~/components/layout/page-header';
import { pageMeta } from '~/lib/seo';
import type { Route } from './+types/content-page';
import type { MessagePacksHandle } from '../../i18n/packs';
import { withMessagePacks } from '~/lib/message-packs';

/** /videos, /our-story, /faq and /contact-us: editable pages from `content_pages`; 404 when missing. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const slug = new URL(request.url).pathname.split('/')[2] ?? '';
  const page = await context.services.content.getContentPage(context.ctx, slug, context.ctx.locale);
  if (!page) throw data(null, { status: 404 });
  return { page, locale: params.locale };
}

/** Listings, cards and the home and content sections are in the `browse` message pack (i18n/packs.ts). */
export const handle = { messagePacks: ['browse'] } as const satisfies MessagePacksHandle;

export const clientLoader = (args: Route.ClientLoaderArgs) => withMessagePacks(args, handle.messagePacks);

export const meta: Route.MetaFunction = ({ matches, data }) =>
  pageMeta(matches, { title: data?.page.title, description: data?.page.summary });

/** What sits beside each page's text; the videos page uses the full width for its grid. */
const ASIDES: Record<string, () => React.ReactNode> = {
  'contact-us': () => <ContactCard />,
  faq: () => <ContactCard title="content.stillQuestions" />,
  'our-story': () => <ServicePromisesCard />,
};

export default function ContentPage({ loaderData }: Route.ComponentProps) {
  const { page } = loaderData;
  const aside = ASIDES[page.slug]?.() ?? null;
  // On the contact page the ways to reach us matter most, so phones show them first.
  const asideFirst = page.slug === 'contact-us';
  return (
    <article className={`content-page content-page--${page.slug}`}>
      <PageHeader title={page.title} lead={page.summary} />
      <div className={`container content-page__body${aside ? ' content-page__body--with-aside' : ''}`}>
        {asideFirst ? aside : null}
        <div className="prose">
          <ContentBlocks blocks={page.blocks} />
        </div>
        {asideFirst ? null : aside}
      </div>
    </article>
  );
}
