import type { ProductPage, ProductSort } from '../../../server/domains/catalog/catalog.schemas';

/** The sort orders of `productListQuery`, in menu order (kept here so the page bundle needs no zod). */
export const SORTS = ['newest', 'best_selling', 'price_asc', 'price_desc'] as const satisfies readonly ProductSort[];
export const DEFAULT_SORT: ProductSort = 'newest';

/** `productListQuery`'s keyword limit (MAX_KEYWORD_LENGTH), repeated so the page bundle needs no zod; a test keeps them equal. */
export const KEYWORD_MAX_LENGTH = 100;

/** Cards per page: three rows of four on desktops, six rows of two on phones. */
export const LISTING_PAGE_SIZE = 12;

/** What the category and search pages show above and in their grids, as the loader decided it. */
export interface ListingFilters {
  sort: ProductSort;
  /** The price bounds for the form, in the display currency's major units ('17.92'); '' when unset. */
  min: string;
  max: string;
  /** The settlement-currency bounds actually applied, for the active-filter chip. */
  priceMin: number | null;
  priceMax: number | null;
  page: number;
  /** Only when the address asked for a page size of its own; kept by the filter form. */
  pageSize: number | null;
}

export interface ListingData {
  filters: ListingFilters;
  result: ProductPage;
  /** A localized message when the query string was rejected (the page answers 400). */
  error: string | null;
}

/** The current address with `page` set (1 drops it), keeping every other parameter. */
export function pageHref(pathname: string, search: string, page: number): string {
  const params = new URLSearchParams(search);
  if (page <= 1) params.delete('page');
  else params.set('page', String(page));
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}

export function hasActiveFilters(filters: ListingFilters): boolean {
  return filters.priceMin !== null || filters.priceMax !== null || filters.sort !== DEFAULT_SORT;
}
