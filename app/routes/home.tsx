import { CategoryStrip } from '~/components/home/category-strip';
import { CollectionSection } from '~/components/home/collection-section';
import { Hero } from '~/components/home/hero';
import { ServicePromises } from '~/components/home/service-promises';
import { absoluteUrl, pageMeta } from '~/lib/seo';
import { localePath } from '~/lib/i18n';
import type { Route } from './+types/home';
import type { MessagePacksHandle } from '../../i18n/packs';
import { withMessagePacks } from '~/lib/message-packs';

/** The collections as sections and the top-level categories as tiles; the same for every visitor. */
export async function loader({ context }: Route.LoaderArgs) {
  const { catalogGroups, catalogProducts } = context.services;
  const locale = context.ctx.locale;
  const [sections, tree] = await Promise.all([
    catalogProducts.homeSections(context.ctx, locale),
    catalogGroups.categoryTree(context.ctx, locale),
  ]);
  return {
    sections: sections.filter((section) => section.products.length > 0),
    categories: tree.map((group) => ({ id: group.id, name: group.name, image: group.image })),
  };
}

/** Listings, cards and the home and content sections are in the `browse` message pack (i18n/packs.ts). */
export const handle = { messagePacks: ['browse'] } as const satisfies MessagePacksHandle;

export const clientLoader = (args: Route.ClientLoaderArgs) => withMessagePacks(args, handle.messagePacks);

export const meta: Route.MetaFunction = ({ matches }) => {
  const root = matches.find((match) => match?.id === 'root')?.loaderData as
    | { origin?: string; locale?: 'en' | 'zh-cn'; site?: { name?: string; logo?: string; contactEmail?: string } }
    | undefined;
  const locale = root?.locale ?? 'zh-cn';
  const home = absoluteUrl(root?.origin, localePath(locale, '/'));
  return pageMeta(matches, {
    path: '/',
    jsonLd: [
      {
        '@context': 'https://schema.org',
        '@type': 'Organization',
        name: root?.site?.name,
        url: home,
        ...(root?.site?.logo ? { logo: absoluteUrl(root.origin, root.site.logo) } : {}),
        ...(root?.site?.contactEmail ? { email: root.site.contactEmail } : {}),
      },
      {
        '@context': 'https://schema.org',
        '@type': 'WebSite',
        name: root?.site?.name,
        url: home,
        inLanguage: locale === 'zh-cn' ? 'zh-CN' : 'en',
        potentialAction: {
          '@type': 'SearchAction',
          target: {
            '@type': 'EntryPoint',
            urlTemplate: `${absoluteUrl(root?.origin, localePath(locale, '/search'))}?keyword={search_term_string}`,
          },
          'query-input': 'required name=search_term_string',
        },
      },
    ],
  });
};

/** Home: the hero, then the shop itself (`#shop`): categories, the collections, and what every order comes with. */
export default function Home({ loaderData }: Route.ComponentProps) {
  const { sections, categories } = loaderData;
  return (
    <>
      <Hero />
      <div id="shop" className="home-sections">
        <CategoryStrip categories={categories} />
        {sections.map((section) => (
          <CollectionSection key={section.id} section={section} />
        ))}
        <ServicePromises />
      </div>
    </>
  );
}
