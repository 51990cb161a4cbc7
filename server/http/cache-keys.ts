import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { isLocale } from '../../i18n/locales';
import { productListQuery } from '../domains/catalog/catalog.schemas';
import { presentsCredentials } from './auth';
import { headersLocale, rawRequestCookies } from './request-context';
import { pathWithoutQuery } from '../shared/url-path';
import type { PageScope } from '../shared/content-version';

/**
 * How the response cache names what it stores. A key is made from the raw request only
 * (URL, the cookies and headers that change the answer), so the same key comes out before
 * routing (the front door) and after it (the Fastify hook). Keys are bounded: a request
 * whose query carries a parameter the answer does not read gets no key at all, so made-up
 * query strings cannot fill the cache and push the catalogue out of it.
 */

/** Cookies whose value changes the HTML of an anonymous page. */
const PAGE_VARYING_COOKIES = ['color_mode', 'currency'] as const;

/**
 * The query parameters storefront pages read: the listing filters of the category and
 * search pages (`productListQuery`, plus the price bounds as typed in a display currency,
 * app/components/catalog/listing.server.ts) and the Google sign-in's failure flag.
 */
export const PAGE_QUERY_PARAMS: ReadonlySet<string> = new Set([
  ...Object.keys(productListQuery.shape),
  'min',
  'max',
  'cur',
  'login_error',
]);

/**
 * Campaign and click ids that ad platforms append to links. No page reads them on the
 * server (analytics read them in the browser), so they are left out of the key and out
 * of the URL a page is rendered from: a campaign's visitors share the cached page.
 */
const TRACKING_PARAM =
  /^(?:utm_\w+|gclid|gbraid|wbraid|dclid|fbclid|msclkid|yclid|ttclid|twclid|li_fat_id|mc_cid|mc_eid|_ga|_gl)$/;

/** The URL without its tracking parameters; the same string when it has none. */
export function withoutTrackingParams(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const pairs = url.slice(queryStart + 1).split('&');
  const kept = pairs.filter((pair) => !TRACKING_PARAM.test(parameterName(pair)));
  if (kept.length === pairs.length) return url;
  return kept.length ? `${url.slice(0, queryStart)}?${kept.join('&')}` : url.slice(0, queryStart);
}

function parameterName(pair: string): string {
  const equals = pair.indexOf('=');
  const name = equals === -1 ? pair : pair.slice(0, equals);
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
}

/** True when every parameter of the URL's query is one the answer reads. */
function readsOnly(url: string, allowed: ReadonlySet<string>): boolean {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return true;
  for (const pair of url.slice(queryStart + 1).split('&')) {
    if (pair !== '' && !allowed.has(parameterName(pair))) return false;
  }
  return true;
}

export function pathLocaleOf(url: string) {
  const path = pathWithoutQuery(url);
  const end = path.indexOf('/', 1);
  const first = end === -1 ? path.slice(1) : path.slice(1, end);
  return isLocale(first) ? first : undefined;
}

export interface PageKeyOptions {
  /**
   * With PUBLIC_URL set, absolute links in a page come from it, so the Host header does
   * not change the HTML and stays out of the key (a made-up Host cannot fill the cache).
   */
  hostInKey: boolean;
}

/**
 * The catalogue pages after the locale (home, content pages, search, category, product),
 * also as React Router data requests (`/en.data`, `/en/product/1.data`). They are one
 * document for everyone in a language, currency and colour mode: a signed-in buyer is served
 * the same copy, which is rendered without reading any session, and the browser fills in the
 * header's name and cart count (`GET /v1/visitor`). Every other page (the account guard's:
 * my/, order/, result/; and the cart) is rendered per buyer and never shared.
 */
const SHARED_PAGE_AFTER_LOCALE = /^(?:\/?|\/(?:videos|our-story|faq|contact-us|search)|\/product\/(?:cate\/)?[^/]+)$/;

/**
 * Pages outside the account guard that show a visitor their own things: the cookie cart (ADR
 * 0115). They get no key, with or without a session; their render also marks itself personal,
 * and either alone keeps them out of the cache.
 */
const VISITOR_PAGE_AFTER_LOCALE = /^\/cart$/;

function pathAfterLocale(url: string): string | undefined {
  const path = pathWithoutQuery(url).replace(/(?:\/_)?\.data$/, '');
  const locale = pathLocaleOf(path);
  return locale === undefined ? undefined : path.slice(locale.length + 1);
}

export function isSharedPage(url: string): boolean {
  const page = pathAfterLocale(url);
  return page !== undefined && SHARED_PAGE_AFTER_LOCALE.test(page);
}

function isVisitorPage(url: string): boolean {
  const page = pathAfterLocale(url);
  return page !== undefined && VISITOR_PAGE_AFTER_LOCALE.test(page);
}

/**
 * The product whose stock and Sold count an address shows in full (its product page, also as
 * a data request, and `GET /v1/good/:id`): its cached copies carry that product's stock
 * version as well (shared/content-version.ts), so an order retires them and nothing else.
 */
const STOCK_PAGE = /^\/(?:[a-z-]+\/product|v1\/good)\/(\d{1,9})(?:(?:\/_)?\.data)?(?:\?|$)/;

export function stockPageProductId(url: string): number | undefined {
  const match = STOCK_PAGE.exec(url);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

const GROUP_PAGE = /^\/(?:[a-z-]+\/product\/cate|v1\/goodGroup)\/(\d{1,9})(?:(?:\/_)?\.data)?(?:\?|$)/;
const HOME_PAGE = /^\/([a-z-]+)\/?(?:(?:\/_)?\.data)?(?:\?|$)/;
const HOME_SECTIONS = /^\/v1\/goodGroup\/list\/1(?:\?|$)/;
const LISTINGS = /^\/(?:[a-z-]+\/search(?:(?:\/_)?\.data)?|v1\/good\/GetldList)(?:\?|$)/;
const PRODUCT_LIST = /^\/v1\/good\/list(?:\?|$)/;
const GROUP_FILTER = /[?&]group_id=(\d{1,9})(?:&|$)/;
const CONTENT_PAGE = /^\/([a-z-]+)\/(videos|our-story|faq|contact-us)(?:(?:\/_)?\.data)?(?:\?|$)/;

/**
 * What part of the catalogue an address shows (shared/content-version.ts PageScope), so a
 * catalogue edit retires its cached copies and nothing else: a product page and
 * `GET /v1/good/:id`; a category page, `GET /v1/goodGroup/:id` and the product list filtered
 * by a group; the home and its sections (`list/1`); search, the unfiltered product list and
 * the id list; a content page in any language. Undefined for the rest (the category tree),
 * which only the content version retires.
 */
export function pageScopeOf(url: string): PageScope | undefined {
  const productId = stockPageProductId(url);
  if (productId !== undefined) return `product:${productId}`;
  const group = GROUP_PAGE.exec(url);
  if (group?.[1] !== undefined) return `group:${Number(group[1])}`;
  if (PRODUCT_LIST.test(url)) {
    const filter = GROUP_FILTER.exec(url);
    return filter?.[1] === undefined ? 'listings' : `group:${Number(filter[1])}`;
  }
  if (LISTINGS.test(url)) return 'listings';
  if (HOME_SECTIONS.test(url)) return 'home';
  const content = CONTENT_PAGE.exec(url);
  if (content?.[1] !== undefined && isLocale(content[1])) return `content:${content[2]}`;
  const home = HOME_PAGE.exec(url);
  return home?.[1] !== undefined && isLocale(home[1]) ? 'home' : undefined;
}

/** The key of a page everyone may share, or undefined when this request's page must not be cached. */
export function pageKey(raw: IncomingMessage, version: string, options: PageKeyOptions): string | undefined {
  const url = withoutTrackingParams(raw.url ?? '/');
  if (!pathLocaleOf(url) || !readsOnly(url, PAGE_QUERY_PARAMS) || isVisitorPage(url)) return undefined;
  const cookies = rawRequestCookies(raw);
  if (presentsCredentials(raw.headers, cookies) && !isSharedPage(url)) return undefined;
  const varying = PAGE_VARYING_COOKIES.map((name) => cookies[name] ?? '').join('|');
  const host = options.hostInKey ? `${raw.headers.host}|${raw.headers['x-forwarded-host'] ?? ''}` : '';
  return `page|${host}${url}|${varying}|${version}`;
}

/** The key of a public API answer; `allowedQuery` is what the route's querystring schema reads. */
export function apiKey(raw: IncomingMessage, version: string, allowedQuery?: ReadonlySet<string>): string | undefined {
  const url = raw.url ?? '/';
  if (allowedQuery && !readsOnly(url, allowedQuery)) return undefined;
  return `api|${headersLocale(raw.headers, rawRequestCookies(raw))}|${url}|${version}`;
}

const queryNamesOfSchema = new WeakMap<object, ReadonlySet<string>>();

/** The parameter names a route's querystring schema reads; none when it has no schema. */
export function queryParamsOf(schema: unknown): ReadonlySet<string> {
  if (!(schema instanceof z.ZodObject)) return new Set();
  let names = queryNamesOfSchema.get(schema);
  if (!names) queryNamesOfSchema.set(schema, (names = new Set(Object.keys(schema.shape))));
  return names;
}

/**
 * Entries for addresses with a query string (listing pages, searches, filtered API lists)
 * live in their own part of the cache: however many distinct searches arrive, they only
 * push out each other, never the home, category and product pages.
 */
export function hasQuery(key: string): boolean {
  return key.includes('?');
}
