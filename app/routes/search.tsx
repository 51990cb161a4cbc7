import { data, Form, Link } from 'react-router';
import { CatalogHeader, EmptyState } from '~/components/catalog/catalog-header';
import { loadListing, shownKeyword } from '~/components/catalog/listing.server';
import { ProductListing } from '~/components/catalog/product-listing';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { pageMeta } from '~/lib/seo';
import { translate } from '../../i18n';
import { SearchIcon } from '~/components/catalog/icons';
import { KEYWORD_MAX_LENGTH as MAX_KEYWORD_LENGTH } from '~/components/catalog/listing';
import type { Route } from './+types/search';
import type { MessagePacksHandle } from '../../i18n/packs';
import { withMessagePacks } from '~/lib/message-packs';

/** The keyword as the catalogue accepts it: trimmed and cut to its first 100 characters (never mid-character). */
function acceptedKeyword(raw: string): { keyword: string; truncated: boolean } {
  const trimmed = raw.trim();
  if (trimmed.length <= MAX_KEYWORD_LENGTH) return { keyword: trimmed, truncated: false };
  let keyword = '';
  for (const char of trimmed) {
    if (keyword.length + char.length > MAX_KEYWORD_LENGTH) break;
    keyword += char;
  }
  return { keyword: keyword.trim(), truncated: true };
}

/**
 * /{locale}/search?keyword=...: products whose English or Chinese text contains the words,
 * with the category page's sorting, price filter and paging. No keyword lists everything.
 * A keyword longer than the catalogue accepts is shortened, and the page says so.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const { keyword, truncated } = acceptedKeyword(url.searchParams.get('keyword') ?? '');
  const { listing, status } = await loadListing(request, context, { keyword });
  // Suggestions for an empty result: the top-level categories.
  const categories =
    keyword && listing.result.total === 0 && !listing.error
      ? (await context.services.catalogGroups.categoryTree(context.ctx, context.ctx.locale)).map((group) => ({
          id: group.id,
          name: group.name,
        }))
      : [];
  return data({ keyword: shownKeyword(keyword), truncated, listing, categories }, { status });
}

/** Listings, cards and the home and content sections are in the `browse` message pack (i18n/packs.ts). */
export const handle = { messagePacks: ['browse'] } as const satisfies MessagePacksHandle;

export const clientLoader = (args: Route.ClientLoaderArgs) => withMessagePacks(args, handle.messagePacks);

export const meta: Route.MetaFunction = ({ matches, data: page }) => {
  const locale =
    (matches.find((match) => match?.id === 'root')?.loaderData as { locale?: 'en' | 'zh-cn' } | undefined)?.locale ??
    'zh-cn';
  const keyword = page?.keyword ?? '';
  return pageMeta(matches, {
    title: keyword ? translate(locale, 'search.resultsFor', { keyword }) : translate(locale, 'search.allProducts'),
    description: translate(locale, 'search.metaDescription'),
    path: keyword ? `/search?${new URLSearchParams({ keyword })}` : '/search',
    // Result pages are endless variations of the catalogue: keep them out of search engines.
    noindex: true,
  });
};

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const { keyword, truncated, listing, categories } = loaderData;
  const filtered = listing.filters.priceMin !== null || listing.filters.priceMax !== null;
  return (
    <div className="catalog-page search-page">
      <CatalogHeader
        title={keyword ? t('search.resultsFor', { keyword }) : t('search.allProducts')}
        lead={keyword ? undefined : t('search.allProductsLead')}
      >
        <Form
          method="get"
          action={localePath(locale, '/search')}
          className="search-hero"
          role="search"
          aria-label={t('search.title')}
        >
          <label className="sr-only" htmlFor="search-page-keyword">
            {t('search.label')}
          </label>
          <span className="search-hero__field">
            <SearchIcon size={20} className="search-hero__icon" />
            <input
              id="search-page-keyword"
              type="search"
              name="keyword"
              defaultValue={keyword}
              key={keyword}
              maxLength={MAX_KEYWORD_LENGTH}
              placeholder={t('search.placeholder')}
              autoComplete="off"
              enterKeyHint="search"
            />
          </span>
          <button type="submit" className="button button--primary">
            {t('search.submit')}
          </button>
        </Form>
        {truncated ? (
          <p className="notice notice--info" role="status">
            {t('search.truncated', { max: MAX_KEYWORD_LENGTH })}
          </p>
        ) : null}
      </CatalogHeader>
      <div className="container catalog-page__body">
        <ProductListing
          listing={listing}
          hiddenFields={keyword ? { keyword } : undefined}
          empty={
            <EmptyState
              title={t('search.noMatch')}
              hint={filtered || !keyword ? t('listing.emptyFilteredHint') : t('search.noMatchHint', { keyword })}
            >
              {categories.length > 0 ? (
                <div className="suggestions">
                  <p className="suggestions__title">{t('search.browseCategories')}</p>
                  <ul className="chips chips--center" role="list">
                    {categories.map((category) => (
                      <li key={category.id}>
                        <Link className="chip" to={localePath(locale, `/product/cate/${category.id}`)}>
                          {category.name}
                        </Link>
                      </li>
                    ))}
                  </ul>
                </div>
              ) : null}
              <Link className="button button--secondary" to={localePath(locale, '/search')}>
                {t('search.browseAll')}
              </Link>
            </EmptyState>
          }
        />
      </div>
    </div>
  );
}
