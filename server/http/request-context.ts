import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DEFAULT_LOCALE, isLocale, localeFromAcceptLanguage, normalizeLocale, type Locale } from '../../i18n/locales';
import type { AppContext, RequestContext } from '../shared/context';

declare module 'fastify' {
  interface FastifyRequest {
    ctx: RequestContext;
  }
}

export const LOCALE_COOKIE = 'lang';
export const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

/** Reads one cookie from the raw header, for code that runs before the cookie parser. */
const cookiePatterns = new Map<string, RegExp>();

export function rawCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  let pattern = cookiePatterns.get(name);
  if (!pattern) cookiePatterns.set(name, (pattern = new RegExp(`(?:^|;\\s*)${name}=([^;]*)`)));
  const match = pattern.exec(header);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return match[1];
  }
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
  return headersLocale(request.headers, request.cookies?.[LOCALE_COOKIE]);
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

/** requestLocale from the raw headers alone (parsedCookie when the cookie parser already ran). */
export function headersLocale(headers: IncomingHttpHeaders, parsedCookie?: string): Locale {
  const header = headers.lang;
  return (
    normalizeLocale(Array.isArray(header) ? header[0] : header) ??
    cookieLocale(parsedCookie ?? rawCookie(headers.cookie, LOCALE_COOKIE)) ??
    acceptLanguageLocale(headers['accept-language']) ??
    DEFAULT_LOCALE
  );
}

const REQUEST_ID_PATTERN = /^[\w.:-]{1,64}$/;

/** An upstream proxy's id is kept so one request can be followed across hops; otherwise a new one. */
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
  app.addHook('onRequest', async (request, reply) => {
    request.ctx = {
      ...appContext,
      log: request.log as AppContext['log'],
      locale: requestLocale(request),
      client: requestClient(request),
      requestId: request.id,
      user: null,
    };
  });
}
