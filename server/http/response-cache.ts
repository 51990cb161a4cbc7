import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isLocale } from '../../i18n/locales';
import type { AppContext } from '../shared/context';
import { currentContentVersion } from '../shared/content-version';
import { chooseEncoding, PageCache, type CachedPage } from './page-cache';
import { CSRF_COOKIE } from './csrf';
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE, rawCookie, requestLocale } from './request-context';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An API answer that depends only on URL, language and content version. */
    publicCache?: boolean;
    /** The storefront's catch-all: anonymous page renders are cached. */
    storefrontPage?: boolean;
  }
  interface FastifyRequest {
    responseCacheKey?: string;
  }
}

/** Cookies whose value changes the HTML of an anonymous page. */
const PAGE_VARYING_COOKIES = ['color_mode', 'currency'] as const;

function pathLocaleOf(url: string) {
  const first = url.split('?')[0].split('/')[1];
  return isLocale(first) ? first : undefined;
}

export interface ResponseCache {
  /** Stores a rendered anonymous page or API answer under the key its request was given. */
  store(request: FastifyRequest, response: { status: number; headers: Headers; body: Buffer }): CachedPage | undefined;
  send(request: FastifyRequest, reply: FastifyReply, entry: CachedPage, state: 'hit' | 'miss'): FastifyReply;
}

/**
 * Anonymous pages and public catalogue answers are the same for every visitor with the
 * same language and display cookies, so they are rendered once per content version and
 * kept per process with compressed copies. The lookup runs as the first hook of a request,
 * before cookie parsing, compression and the rest, so a hit costs little more than a bare
 * route; every change to what those pages show bumps the shared content version.
 */
export function registerResponseCache(
  app: FastifyInstance,
  options: { appContext: AppContext; ttlSeconds: number; secureCookies: boolean },
): ResponseCache | null {
  if (options.ttlSeconds <= 0) return null;
  const cache = new PageCache({ ttlMs: options.ttlSeconds * 1000, maxEntries: 5_000, maxBytes: 192 * 1024 * 1024 });
  const cookieSuffix = `; Path=/; Max-Age=${LOCALE_COOKIE_MAX_AGE}; SameSite=Lax${options.secureCookies ? '; Secure' : ''}`;

  const keyFor = async (request: FastifyRequest): Promise<string | undefined> => {
    if (request.method !== 'GET') return undefined;
    const config = request.routeOptions.config;
    const cookies = request.headers.cookie;
    if (config.publicCache) {
      return `api|${requestLocale(request)}|${request.url}|${await currentContentVersion(options.appContext)}`;
    }
    if (config.storefrontPage && pathLocaleOf(request.url) && !rawCookie(cookies, 'access_token')) {
      const varying = PAGE_VARYING_COOKIES.map((name) => rawCookie(cookies, name) ?? '').join('|');
      return `page|${request.host}${request.url}|${varying}|${await currentContentVersion(options.appContext)}`;
    }
    return undefined;
  };

  const send: ResponseCache['send'] = (request, reply, entry, state) => {
    const isPage = request.responseCacheKey?.startsWith('page|');
    if (isPage) {
      if (state === 'hit') {
        // A render hands out these per-visitor cookies itself; a hit adds them here, so none is ever cached.
        const cookies = request.headers.cookie;
        const locale = pathLocaleOf(request.url);
        const setCookies: string[] = [];
        if (locale && rawCookie(cookies, LOCALE_COOKIE) !== locale) setCookies.push(`${LOCALE_COOKIE}=${locale}${cookieSuffix}`);
        if (!rawCookie(cookies, CSRF_COOKIE)) setCookies.push(`${CSRF_COOKIE}=${crypto.randomUUID().replaceAll('-', '')}${cookieSuffix}`);
        if (setCookies.length) reply.header('set-cookie', setCookies);
      }
      for (const [name, value] of entry.headers) reply.header(name, value);
      reply.header('cache-control', 'no-cache');
      reply.header('vary', 'Cookie, Accept-Encoding');
    } else {
      reply.type('application/json; charset=utf-8');
      reply.header('cache-control', 'public, max-age=0, must-revalidate');
      reply.header('vary', 'lang, Accept-Language, Cookie, Accept-Encoding');
    }
    reply.header('etag', entry.etag);
    reply.header('x-cache', state);
    if (request.headers['if-none-match'] === entry.etag) return reply.status(304).send();
    reply.status(entry.status);
    const { body, encoding } = chooseEncoding(request.headers['accept-encoding'], entry);
    if (encoding) reply.header('content-encoding', encoding);
    return reply.send(body);
  };

  app.addHook('onRequest', async (request, reply) => {
    const key = await keyFor(request);
    if (!key) return;
    request.responseCacheKey = key;
    const hit = cache.get(key);
    if (hit) return send(request, reply, hit, 'hit');
  });

  // API answers are stored as they leave; pages are stored by the storefront handler.
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.responseCacheKey?.startsWith('api|') || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    if (reply.getHeader('x-cache') === 'hit') return payload;
    const entry = cache.set(request.responseCacheKey, { status: 200, headers: new Headers(), body: Buffer.from(payload) });
    reply.header('etag', entry.etag);
    reply.header('cache-control', 'public, max-age=0, must-revalidate');
    reply.header('vary', 'lang, Accept-Language, Cookie, Accept-Encoding');
    reply.header('x-cache', 'miss');
    return payload;
  });

  return {
    store(request, response) {
      if (!request.responseCacheKey?.startsWith('page|')) return undefined;
      return cache.set(request.responseCacheKey, response);
    },
    send,
  };
}
