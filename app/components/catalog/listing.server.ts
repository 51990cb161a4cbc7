import type { AppLoadContext } from 'react-router';
import { translate } from '../../../i18n';
import { productListQuery, type ProductPage } from '../../../server/domains/catalog/catalog.schemas';
import { describeIssue } from '../../../server/shared/issue-messages';
import { isCurrency } from '../../../server/shared/money';
import { printableText } from '../../../server/shared/text';
import { DISPLAY_CURRENCY_COOKIE, type DisplayCurrency } from '~/lib/currency';
import { requestCookies } from '~/lib/request-cookies.server';
import { DEFAULT_SORT, LISTING_PAGE_SIZE, type ListingData, type ListingFilters } from './listing';
import { displayAmountText, parseMajorAmount, settlementBound } from './price-range';

/** Parameters the page addresses use on top of `productListQuery`'s: the price bounds as typed. */
const DISPLAY_PRICE_PARAMS = ['min', 'max', 'cur'] as const;

/**
 * The buyer's display currency, as the root loader works it out. The `currency` cookie is
 * part of the page-cache key, so reading it here keeps cached pages correct.
 */
export async function displayCurrencyFor(request: Request, context: AppLoadContext): Promise<DisplayCurrency> {
  const settings = await context.services.siteSettings.getSiteSettings(context.ctx);
  const chosen = requestCookies(request)[DISPLAY_CURRENCY_COOKIE];
  return {
    settlement: settings.currency,
    currency: isCurrency(chosen) ? chosen : settings.currency,
    rates: settings.exchange_rates,
  };
}

function emptyPage(pageSize: number): ProductPage {
  return { records: [], total: 0, page: 1, page_size: pageSize, has_more: false };
}

/**
 * The product list of the category and search pages, from the address's query string.
 *
 * The query is validated by the same `productListQuery` schema as `GET /v1/good/list`.
 * The price form sends `min` / `max` in the display currency's major units plus `cur`, the
 * currency they were typed in; they become `price_min` / `price_max` in settlement minor units
 * (see `settlementBound`). `price_min` / `price_max` given directly are honoured as they are.
 * Bad input never throws: the page gets a localized message and answers 400.
 */
export async function loadListing(
  request: Request,
  context: AppLoadContext,
  fixed: { group_id?: number; keyword?: string },
): Promise<{ listing: ListingData; status: 200 | 400 }> {
  const locale = context.ctx.locale;
  const url = new URL(request.url);
  const display = await displayCurrencyFor(request, context);
  const raw: Record<string, string> = {};
  for (const [key, value] of url.searchParams) {
    // An empty field of a GET form means "not set", not zero.
    if (value.trim() !== '') raw[key] = value;
  }
  const pageSizeParam = raw.page_size;
  const fail = (message: string, filters: Partial<ListingFilters> = {}) => ({
    listing: {
      filters: {
        sort: DEFAULT_SORT,
        min: raw.min ?? '',
        max: raw.max ?? '',
        priceMin: null,
        priceMax: null,
        page: 1,
        pageSize: null,
        ...filters,
      },
      result: emptyPage(LISTING_PAGE_SIZE),
      error: message,
    },
    status: 400 as const,
  });

  // Bounds typed in a display currency (the one named by `cur`, else the buyer's).
  const typedIn = isCurrency(raw.cur) ? raw.cur : display.currency;
  const typedDisplay = { ...display, currency: typedIn };
  const bounds: { price_min?: number; price_max?: number } = {};
  for (const [param, field, kind] of [
    ['min', 'price_min', 'min'],
    ['max', 'price_max', 'max'],
  ] as const) {
    const minor = parseMajorAmount(raw[param], typedIn);
    if (minor === null) {
      return fail(
        translate(locale, 'validation.invalidType', {
          field: translate(locale, `field.${field}`),
          expected: translate(locale, 'type.number'),
        }),
      );
    }
    if (minor !== undefined) bounds[field] = settlementBound(minor, typedDisplay, kind);
  }

  const input: Record<string, unknown> = { ...raw, page_size: pageSizeParam ?? LISTING_PAGE_SIZE, ...bounds };
  for (const param of DISPLAY_PRICE_PARAMS) delete input[param];
  delete input.group_id;
  delete input.keyword;
  if (fixed.group_id !== undefined) input.group_id = fixed.group_id;
  if (fixed.keyword) input.keyword = fixed.keyword;

  const parsed = productListQuery.safeParse(input);
  if (!parsed.success) return fail(describeIssue(locale, parsed.error.issues[0]!, 'querystring'));
  const query = parsed.data;
  const result = await context.services.catalogProducts.listProducts(context.ctx, query, locale);

  // The form shows the bounds in the buyer's currency: as typed when typed in it, else converted.
  const shownBound = (param: 'min' | 'max', settlementMinor: number | undefined) => {
    if (settlementMinor === undefined) return '';
    if (raw[param] !== undefined && typedIn === display.currency) return raw[param].trim();
    return displayAmountText(settlementMinor, display);
  };
  return {
    listing: {
      filters: {
        sort: query.sort,
        min: shownBound('min', query.price_min),
        max: shownBound('max', query.price_max),
        priceMin: query.price_min ?? null,
        priceMax: query.price_max ?? null,
        page: query.page,
        pageSize: pageSizeParam !== undefined ? query.page_size : null,
      },
      result,
      error: null,
    },
    status: 200,
  };
}

/** A search word as the page may show it again: a refused one is shown without what was refused. */
export function shownKeyword(keyword: string): string {
  return printableText(keyword);
}
