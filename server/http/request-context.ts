import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DEFAULT_LOCALE, isLocale, localeFromAcceptLanguage, normalizeLocale, type Locale } from '../../i18n/locales';
import type { AppContext, RequestContext } from '../context';
import { parseCookies, type CookieJar } from '../shared/cookies';
import { siteOrigin } from '../shared/site-origin';

declare module 'fastify' {
  interface FastifyRequest {
    ctx: RequestContext;
  }
}

export const LOCALE_COOKIE = 'lang';
export const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

const PARSED_COOKIES = Symbol('parsedCookies');

/**
 * The cookies of a raw request, parsed once: the response cache reads them before Fastify
 * runs (and before @fastify/cookie fills `request.cookies` with the same parser).
 */
export function rawRequestCookies(raw: IncomingMessage): CookieJar {
  const memo = raw as IncomingMessage & { [PARSED_COOKIES]?: CookieJar };
  return (memo[PARSED_COOKIES] ??= parseCookies(raw.headers.cookie));
}

export const DEFAULT_CLIENT = 4;

function cookieLocale(value: string | undefined): Locale | undefined {
  return isLocale(value) ? value : undefined;
}

/**
 * The language of API messages: the `lang` header (SPEC section 7), then the locale
 * cookie, then Accept-Language, then Chinese.
 */
export function requestLocale(request: FastifyRequest): Locale {
  return headersLocale(request.headers, request.cookies ?? rawRequestCookies(request.raw));
}

/**
 * Accept-Language values and the locale each picks: clients send a handful of distinct
 * values, and ranking one (split, map, sort) ran on every cached API hit without a `lang`
 * header. Short values only, so the memo stays small.
 */
const acceptLanguageLocales = new Map<string, Locale | null>();

function acceptLanguageLocale(header: string | undefined): Locale | undefined {
  if (!header) return undefined;
  const known = acceptLanguageLocales.get(header);
  if (known !== undefined) return known ?? undefined;
  const locale = localeFromAcceptLanguage(header);
  if (header.length <= 200) {
    if (acceptLanguageLocales.size >= 256) acceptLanguageLocales.clear();
    acceptLanguageLocales.set(header, locale ?? null);
  }
  return locale;
}

/** requestLocale from the raw headers and the request's cookies. */
export function headersLocale(headers: IncomingHttpHeaders, cookies: CookieJar): Locale {
  const header = headers.lang;
  return (
    normalizeLocale(Array.isArray(header) ? header[0] : header) ??
    cookieLocale(cookies[LOCALE_COOKIE]) ??
    acceptLanguageLocale(headers['accept-language']) ??
    DEFAULT_LOCALE
  );
}

const REQUEST_ID_PATTERN = /^[\w.:-]{1,64}$/;

/** An upstream proxy's id is kept so one request can be followed across hops; otherwise a new one. */
/** The shop's origin for absolute links in an answer to this request (see siteOrigin). */
export function siteOriginOf(request: FastifyRequest): string {
  return siteOrigin(request.ctx.env, `${request.protocol}://${request.host}`);
}

export function requestIdOf(raw: IncomingMessage): string {
  const incoming = raw.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
}

function requestClient(request: FastifyRequest): number {
  const value = Number(request.headers.client);
  return Number.isInteger(value) && value > 0 && value < 1000 ? value : DEFAULT_CLIENT;
}

export function registerRequestContext(app: FastifyInstance, appContext: AppContext): void {
  app.decorateRequest('ctx', null as unknown as RequestContext);
  app.addHook('onRequest', async (request) => {
    request.ctx = {
      ...appContext,
      log: request.log as AppContext['log'],
      locale: requestLocale(request),
      client: requestClient(request),
      requestId: request.id,
      user: null,
      staff: null,
      privacy: { personal: false },
    };
  });
  // An answer that read a session or a cart is for its reader only: no shared cache (a CDN,
  // a corporate proxy) may keep it, and none may hand it to a request with other cookies.
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.ctx?.privacy.personal) return payload;
    reply.header('cache-control', 'private, no-store');
    const vary = reply.getHeader('vary');
    const varies = typeof vary === 'string' ? vary : Array.isArray(vary) ? vary.join(', ') : '';
    if (!/(^|,)\s*cookie\s*(,|$)/i.test(varies)) reply.header('vary', varies ? `${varies}, Cookie` : 'Cookie');
    return payload;
  });
}
