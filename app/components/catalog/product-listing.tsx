import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useFetcher, useLocation, useNavigation } from 'react-router';
import type { ProductCardData } from './product-card';
import { ProductGrid } from './product-card';
import { ListingFiltersForm } from './listing-filters';
import { pageHref, type ListingData } from './listing';
import { useHydrated } from './use-hydrated';
import { useT } from '~/lib/i18n';

/** SPEC section 9: load more when the bottom of the list comes within 30px of the viewport. */
const LOAD_MORE_MARGIN_PX = 30;
/** Cards in the first rows, above the fold on most screens: loaded eagerly. */
const ABOVE_THE_FOLD = 4;

interface LoadedPage {
  page: number;
  records: ProductCardData[];
  hasMore: boolean;
}

interface ListingProps {
  listing: ListingData;
  /** Extra fields the filter form must keep (the search keyword). */
  hiddenFields?: Record<string, string>;
  /** What to show when there are no products at all. */
  empty: React.ReactNode;
}

/**
 * The product list of the category and search pages: the filter toolbar, the grid, and
 * more pages. With JavaScript, the next page is fetched from the route's loader when the end
 * of the list nears the bottom of the window and appended, with a spinner while it loads and
 * 'No more' at the end. Without it, plain pagination links render the requested page on the
 * server (they are hidden once the page is interactive).
 */
export function ProductListing(props: ListingProps) {
  const { pathname, search } = useLocation();
  // A new address (other filters, sort or page) starts a fresh list.
  return <ListingBody key={pathname + search} {...props} />;
}

function ListingBody({ listing, hiddenFields, empty }: ListingProps) {
  const t = useT();
  const hydrated = useHydrated();
  const { pathname, search } = useLocation();
  const { result, filters, error } = listing;
  const fetcher = useFetcher<{ listing: ListingData }>();
  const [pages, setPages] = useState<LoadedPage[]>([]);
  const [requested, setRequested] = useState<number | null>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  // Another sort order or filter of this list is loading: the current cards fade until it arrives.
  const navigation = useNavigation();
  const refreshing = navigation.state === 'loading' && navigation.location.pathname === pathname;

  // A page arrived (or was revalidated, e.g. after a currency change): keep the latest copy of each.
  useEffect(() => {
    if (fetcher.state !== 'idle') return;
    setRequested(null);
    const data = fetcher.data?.listing;
    if (!data || data.error) return;
    const page = data.result.page;
    setPages((current) =>
      [
        ...current.filter((entry) => entry.page !== page),
        { page, records: data.result.records, hasMore: data.result.has_more },
      ].sort((a, b) => a.page - b.page),
    );
  }, [fetcher.data, fetcher.state]);

  const last = pages.at(-1);
  const nextPage = last ? (last.hasMore ? last.page + 1 : null) : result.has_more ? result.page + 1 : null;
  // Only our own requests count: the fetcher also reloads quietly after a currency change.
  const loading = requested !== null;

  const loadMore = useCallback(() => {
    if (nextPage === null || loading) return;
    setRequested(nextPage);
    void fetcher.load(pageHref(pathname, search, nextPage));
  }, [nextPage, loading, fetcher, pathname, search]);

  // Watch the end of the list; a new observer after each page re-checks a still-visible end.
  useEffect(() => {
    const target = sentinel.current;
    if (!hydrated || !target || nextPage === null || loading) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) loadMore();
      },
      { rootMargin: `0px 0px ${LOAD_MORE_MARGIN_PX}px 0px` },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [hydrated, nextPage, loading, loadMore]);

  // One list, without repeats (products may shift between pages while browsing).
  const seen = new Set<number>();
  const records = [...result.records, ...pages.flatMap((entry) => entry.records)].filter((product) =>
    seen.has(product.id) ? false : (seen.add(product.id), true),
  );
  const shown = records.length;
  const finished = nextPage === null;
  const totalPages = Math.max(1, Math.ceil(result.total / result.page_size));

  return (
    <div className="listing" aria-busy={refreshing || undefined}>
      <ListingFiltersForm filters={filters} total={result.total} hiddenFields={hiddenFields} />
      {error ? (
        <div className="notice notice--error" role="alert">
          <p className="notice__title">{t('listing.invalid')}</p>
          <p>{error}</p>
        </div>
      ) : null}
      <h2 className="sr-only">{t('listing.products')}</h2>
      {result.page > 1 && shown > 0 ? (
        <p className="listing__earlier">
          <Link to={pageHref(pathname, search, 1)} className="button button--secondary">
            {t('listing.showEarlier')}
          </Link>
        </p>
      ) : null}
      {/* Refused filters were not searched with, so "nothing matches" would not be true. */}
      {shown > 0 ? (
        <ProductGrid products={records} priorityCount={result.page === 1 ? ABOVE_THE_FOLD : 0} />
      ) : error ? null : (
        empty
      )}
      {shown > 0 ? (
        <div className="listing__footer">
          <div ref={sentinel} className="listing__sentinel" aria-hidden="true" />
          <p className="listing__status" role="status" aria-live="polite">
            {loading ? (
              <>
                <span className="spinner" aria-hidden="true" />
                <span>{t('listing.loading')}</span>
              </>
            ) : finished ? (
              <span className="listing__end">{t('listing.noMore')}</span>
            ) : (
              <span className="listing__progress">
                {t('listing.showing', { shown: (result.page - 1) * result.page_size + shown, total: result.total })}
              </span>
            )}
          </p>
          {hydrated && !finished && !loading ? (
            <button type="button" className="button button--secondary listing__more" onClick={loadMore}>
              {t('listing.loadMore')}
            </button>
          ) : null}
          <Pagination page={result.page} totalPages={totalPages} hidden={hydrated} />
        </div>
      ) : null}
    </div>
  );
}

/** Numbered pages (at most 7 numbers, SPEC section 9's pager count) for visitors without JavaScript. */
function Pagination({ page, totalPages, hidden }: { page: number; totalPages: number; hidden: boolean }) {
  const t = useT();
  const { pathname, search } = useLocation();
  if (totalPages <= 1) return null;
  const count = Math.min(7, totalPages);
  const first = Math.min(Math.max(1, page - Math.floor(count / 2)), totalPages - count + 1);
  const numbers = Array.from({ length: count }, (_, index) => first + index);
  return (
    <nav className="pagination" aria-label={t('listing.pagination')} hidden={hidden}>
      {page > 1 ? (
        <a className="pagination__step" href={pageHref(pathname, search, page - 1)} rel="prev">
          {t('listing.previous')}
        </a>
      ) : null}
      <ul role="list" className="pagination__pages">
        {numbers.map((number) => (
          <li key={number}>
            {number === page ? (
              <span className="pagination__page" aria-current="page">
                <span className="sr-only">{t('listing.page', { page: number })}</span>
                <span aria-hidden="true">{number}</span>
              </span>
            ) : (
              <a className="pagination__page" href={pageHref(pathname, search, number)}>
                <span className="sr-only">{t('listing.page', { page: number })}</span>
                <span aria-hidden="true">{number}</span>
              </a>
            )}
          </li>
        ))}
      </ul>
      {page < totalPages ? (
        <a className="pagination__step" href={pageHref(pathname, search, page + 1)} rel="next">
          {t('listing.next')}
        </a>
      ) : null}
    </nav>
  );
}
