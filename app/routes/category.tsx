import { data } from 'react-router';
import { CatalogHeader, EmptyState, type Chip } from '~/components/catalog/catalog-header';
import { loadListing } from '~/components/catalog/listing.server';
import { ProductListing } from '~/components/catalog/product-listing';
import { absoluteUrl, pageMeta } from '~/lib/seo';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { translate } from '../../i18n';
import type { Route } from './+types/category';
import type { MessagePacksHandle } from '../../i18n/packs';
import { withMessagePacks } from '~/lib/message-packs';
import { plainRowId } from '../../server/shared/ids';

/**
 * /{locale}/product/cate/:id: a category (or collection) and its products, filtered, sorted
 * and paged by the query string. Unknown and non-numeric ids are 404.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const id = plainRowId(params.id);
  if (id === null) throw data(null, { status: 404 });
  const { catalogGroups } = context.services;
  const locale = context.ctx.locale;
  const group = await catalogGroups.getGroup(context.ctx, id, locale);
  if (!group) throw data(null, { status: 404 });
  const [{ listing, status }, parent] = await Promise.all([
    loadListing(request, context, { group_id: id }),
    group.parent_id ? catalogGroups.getGroup(context.ctx, group.parent_id, locale) : null,
  ]);
  return data(
    {
      group: {
        id: group.id,
        name: group.name,
        description: group.description,
        image: group.image,
        breadcrumb: group.breadcrumb,
        children: group.children.map((child) => ({ id: child.id, name: child.name })),
      },
      // Siblings as chips when this is a sub-category.
      parent: parent
        ? {
            id: parent.id,
            name: parent.name,
            children: parent.children.map((child) => ({ id: child.id, name: child.name })),
          }
        : null,
      listing,
    },
    { status },
  );
}

/** Listings, cards and the home and content sections are in the `browse` message pack (i18n/packs.ts). */
export const handle = { messagePacks: ['browse'] } as const satisfies MessagePacksHandle;

export const clientLoader = (args: Route.ClientLoaderArgs) => withMessagePacks(args, handle.messagePacks);

export const meta: Route.MetaFunction = ({ matches, data: page, params }) => {
  if (!page) return pageMeta(matches);
  const root = matches.find((match) => match?.id === 'root')?.loaderData as
    { origin?: string; locale?: 'en' | 'zh-cn' } | undefined;
  const locale = root?.locale ?? 'zh-cn';
  const pageNumber = page.listing.filters.page;
  // Each page of a list is its own canonical page; filters and sort orders fold into the plain list.
  const path = `/product/cate/${params.id}${pageNumber > 1 ? `?page=${pageNumber}` : ''}`;
  const crumbs = [
    { name: translate(locale, 'shell.home'), path: '/' },
    ...page.group.breadcrumb.map((crumb) => ({ name: crumb.name, path: `/product/cate/${crumb.id}` })),
  ];
  return pageMeta(matches, {
    title:
      pageNumber > 1
        ? translate(locale, 'listing.pageTitle', { title: page.group.name, page: pageNumber })
        : page.group.name,
    description: page.group.description,
    path,
    image: page.group.image ?? undefined,
    jsonLd: [
      {
        '@context': 'https://schema.org',
        '@type': 'BreadcrumbList',
        itemListElement: crumbs.map((crumb, index) => ({
          '@type': 'ListItem',
          position: index + 1,
          name: crumb.name,
          item: absoluteUrl(root?.origin, localePath(locale, crumb.path)),
        })),
      },
    ],
  });
};

export default function CategoryPage({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const { group, parent, listing } = loaderData;
  const href = (id: number) => localePath(locale, `/product/cate/${id}`);
  let chips: Chip[] = [];
  if (group.children.length > 0) {
    chips = [
      { name: t('listing.all'), href: href(group.id), current: true },
      ...group.children.map((child) => ({ name: child.name, href: href(child.id), current: false })),
    ];
  } else if (parent && parent.children.length > 1) {
    chips = [
      { name: t('listing.all'), href: href(parent.id), current: false },
      ...parent.children.map((child) => ({ name: child.name, href: href(child.id), current: child.id === group.id })),
    ];
  }
  const filtered = listing.filters.priceMin !== null || listing.filters.priceMax !== null;
  return (
    <div className="catalog-page">
      <CatalogHeader
        title={group.name}
        lead={group.description || undefined}
        trail={group.breadcrumb.slice(0, -1).map((crumb) => ({ name: crumb.name, href: href(crumb.id) }))}
        chips={chips}
      />
      <div className="container catalog-page__body">
        <ProductListing
          listing={listing}
          empty={
            filtered ? (
              <EmptyState title={t('listing.emptyFiltered')} hint={t('listing.emptyFilteredHint')} />
            ) : (
              <EmptyState title={t('listing.empty')} hint={t('listing.emptyHint')}>
                <a className="button button--secondary" href={localePath(locale, '/')}>
                  {t('shell.goHome')}
                </a>
              </EmptyState>
            )
          }
        />
      </div>
    </div>
  );
}
