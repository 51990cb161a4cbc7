import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import {
  currentContentVersion,
  currentScopedPageVersion,
  peekContentVersion,
  peekScopedPageVersion,
} from '../shared/content-version';
import { bodyFor, chooseEncoding, encodingFor, PageCache, type CachedPage, type Encoding } from './page-cache';
import { apiKey, hasQuery, pageKey, pageScopeOf, pathLocaleOf, queryParamsOf } from './cache-keys';
import { CSRF_COOKIE } from './csrf';
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE, rawRequestCookies, requestIdOf } from './request-context';
import { securityHeaders } from './security-headers';
import { createSharedRenders, type RenderFinish } from './shared-renders';
import { closeConnectionWhileStopping, type StopState } from './graceful-stop';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An API answer that depends only on URL, language and content version. */
    publicCache?: boolean;
    /** The storefront's catch-all: anonymous page renders are cached. */
    storefrontPage?: boolean;
  }
  interface FastifyRequest {
    responseCacheKey?: string;
    /** Set on a request that missed the cache and renders: tells the requests waiting for its render what it stored. */
    finishRender?: RenderFinish;
  }
}

const PAGE_CACHE_CONTROL = 'no-cache';
const PAGE_VARY = 'Cookie, Accept-Encoding';
const API_TYPE = 'application/json; charset=utf-8';
const API_CACHE_CONTROL = 'public, max-age=0, must-revalidate';
const API_VARY = 'lang, Accept-Language, Cookie, Accept-Encoding';

/** Headers a hit sets itself, so a cached page's own copies are left out. */
const HIT_HEADERS = new Set(['cache-control', 'vary', 'x-cache', 'x-request-id']);

/** Answers a request straight from the cache; false when Fastify has to handle it. */
export type FrontDoor = (raw: IncomingMessage, res: ServerResponse) => boolean;

/**
 * Fastify's own HTTP server with the response cache in front of its handler: a hit is
 * written with precomputed header lists before Fastify routes the request or runs a
 * hook (docs/decisions/0030-cache-hits-before-fastify.md). Everything else goes to Fastify.
 */
export function serverWithFrontDoor(
  handler: RequestListener,
  options: {
    http?: http.ServerOptions;
    keepAliveTimeout?: number;
    requestTimeout?: number;
    connectionTimeout?: number;
    maxRequestsPerSocket?: number;
  },
  frontDoor: () => FrontDoor | undefined,
  stop: StopState,
): http.Server {
  const server = http.createServer(options.http ?? {}, (raw, res) => {
    closeConnectionWhileStopping(stop, res);
    if (frontDoor()?.(raw, res)) return;
    handler(raw, res);
  });
  if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
  if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
  server.setTimeout(options.connectionTimeout ?? 0);
  if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
  return server;
}

export interface ResponseCache {
  /** Stores a rendered anonymous page or API answer under the key its request was given. */
  store(request: FastifyRequest, response: { status: number; headers: Headers; body: Buffer }): CachedPage | undefined;
  send(request: FastifyRequest, reply: FastifyReply, entry: CachedPage, state: 'hit' | 'miss'): FastifyReply;
  /** Serves hits on the raw request before Fastify sees it (see serverWithFrontDoor). */
  frontDoor: FrontDoor;
}

/**
 * A cached entry's response headers for each way it can be sent, made on its first hit.
 * Each list ends with `x-request-id` and a slot for its value, filled in per hit.
 */
interface PreparedHeads {
  identity: string[];
  gzip: string[];
  br: string[];
  notModified: string[];
}

/**
 * Anonymous pages and public catalogue answers are the same for every visitor with the
 * same language and display cookies, so they are rendered once per content version and
 * kept per process with compressed copies. Hits are answered in front of Fastify
 * (frontDoor) while this process knows the current content version; the `onRequest` hook
 * below is the second chance (first hook of a request, before cookie parsing, compression
 * and the rest) and where misses get their key. Every change to what those pages show
 * bumps the shared content version.
 */
export function registerResponseCache(
  app: FastifyInstance,
  options: { appContext: AppContext; ttlSeconds: number; secureCookies: boolean; https: boolean },
): ResponseCache | null {
  if (options.ttlSeconds <= 0) return null;
  const { appContext } = options;
  const ttlMs = options.ttlSeconds * 1000;
  // Addresses with a query (searches, filtered lists) have their own budget: see hasQuery.
  const pathEntries = new PageCache({ ttlMs, maxEntries: 4_000, maxBytes: 160 * 1024 * 1024 });
  const queryEntries = new PageCache({ ttlMs, maxEntries: 1_000, maxBytes: 32 * 1024 * 1024 });
  const cacheFor = (key: string) => (hasQuery(key) ? queryEntries : pathEntries);
  const keyOptions = { hostInKey: !appContext.env.PUBLIC_URL };
  const cookieSuffix = `; Path=/; Max-Age=${LOCALE_COOKIE_MAX_AGE}; SameSite=Lax${options.secureCookies ? '; Secure' : ''}`;
  const security = Object.entries(securityHeaders({ https: options.https })).flat();
  const prepared = new WeakMap<CachedPage, PreparedHeads>();
  const hitTally = tallyHits(app, appContext.log);
  const renders = createSharedRenders({ maxWaitMs: SHARED_RENDER_MAX_WAIT_MS, passMs: UNSTORED_RENDER_PASS_MS });

  /** The version a cached copy of this address carries: the content version, and its scope's on catalogue pages. */
  const versionOf = (url: string): Promise<string> => {
    const scope = pageScopeOf(url);
    return scope === undefined ? currentContentVersion(appContext) : currentScopedPageVersion(appContext, scope);
  };
  const peekVersionOf = (url: string, now: number): string | undefined => {
    const scope = pageScopeOf(url);
    return scope === undefined ? peekContentVersion(appContext, now) : peekScopedPageVersion(appContext, scope, now);
  };

  const keyFor = async (request: FastifyRequest): Promise<string | undefined> => {
    if (request.method !== 'GET') return undefined;
    const config = request.routeOptions.config;
    if (config.publicCache)
      return apiKey(
        request.raw,
        await versionOf(request.raw.url ?? '/'),
        queryParamsOf(request.routeOptions.schema?.querystring),
      );
    if (config.storefrontPage) return pageKey(request.raw, await versionOf(request.raw.url ?? '/'), keyOptions);
    return undefined;
  };

  /** A hit on a page hands out the per-visitor cookies a render would, so none is ever cached. */
  const visitorCookies = (raw: IncomingMessage): string[] | undefined => {
    const cookies = rawRequestCookies(raw);
    const locale = pathLocaleOf(raw.url ?? '/');
    let setCookies: string[] | undefined;
    if (locale && cookies[LOCALE_COOKIE] !== locale)
      (setCookies ??= []).push(`${LOCALE_COOKIE}=${locale}${cookieSuffix}`);
    if (!cookies[CSRF_COOKIE])
      (setCookies ??= []).push(`${CSRF_COOKIE}=${crypto.randomUUID().replaceAll('-', '')}${cookieSuffix}`);
    return setCookies;
  };

  const headsOf = (entry: CachedPage, isPage: boolean): PreparedHeads => {
    let heads = prepared.get(entry);
    if (heads) return heads;
    const common = [
      ...security,
      ...(isPage ? entry.headers.filter(([name]) => !HIT_HEADERS.has(name)).flat() : ['content-type', API_TYPE]),
      'cache-control',
      isPage ? PAGE_CACHE_CONTROL : API_CACHE_CONTROL,
      'vary',
      isPage ? PAGE_VARY : API_VARY,
      'etag',
      entry.etag,
      'x-cache',
      'hit',
    ];
    const sized = (body: Buffer | null, encoding?: Encoding) =>
      body
        ? [
            ...common,
            ...(encoding ? ['content-encoding', encoding] : []),
            'content-length',
            String(body.length),
            'x-request-id',
            '',
          ]
        : [];
    heads = {
      identity: sized(entry.body),
      gzip: sized(entry.gzip, 'gzip'),
      br: sized(entry.brotli, 'br'),
      notModified: [...common, 'x-request-id', ''],
    };
    prepared.set(entry, heads);
    return heads;
  };

  const frontDoor: FrontDoor = (raw, res) => {
    if (raw.method !== 'GET') return false;
    const now = Date.now();
    const url = raw.url ?? '/';
    const version = peekVersionOf(url, now);
    if (version === undefined) return false;
    const isPage = !url.startsWith('/v');
    const key = isPage ? pageKey(raw, version, keyOptions) : apiKey(raw, version);
    const entry = key && cacheFor(key).get(key, now);
    if (!entry) return false;

    const started = hitTally.logEach ? performance.now() : 0;
    const requestId = requestIdOf(raw);
    const heads = headsOf(entry, isPage);
    const notModified = raw.headers['if-none-match'] === entry.etag;
    const encoding = notModified ? undefined : encodingFor(raw.headers['accept-encoding'], entry);
    let list = notModified ? heads.notModified : encoding ? heads[encoding] : heads.identity;
    // writeHead turns the list into the response's header block before it returns, so the
    // shared list's request id slot can be filled in place instead of copying the list per hit.
    list[list.length - 1] = requestId;
    const setCookies = isPage ? visitorCookies(raw) : undefined;
    if (setCookies) {
      list = list.slice();
      for (const cookie of setCookies) list.push('set-cookie', cookie);
    }
    res.writeHead(notModified ? 304 : entry.status, list);
    res.end(notModified ? undefined : bodyFor(entry, encoding));
    hitTally.count(isPage, notModified);
    if (hitTally.logEach) {
      appContext.log.debug(
        {
          reqId: requestId,
          req: { method: raw.method, url },
          res: { statusCode: res.statusCode },
          responseTime: performance.now() - started,
          cache: 'hit',
        },
        'request completed',
      );
    }
    return true;
  };

  const send: ResponseCache['send'] = (request, reply, entry, state) => {
    const isPage = request.responseCacheKey?.startsWith('page|');
    if (isPage) {
      if (state === 'hit') {
        const setCookies = visitorCookies(request.raw);
        if (setCookies) reply.header('set-cookie', setCookies);
      }
      for (const [name, value] of entry.headers) reply.header(name, value);
      reply.header('cache-control', PAGE_CACHE_CONTROL);
      reply.header('vary', PAGE_VARY);
    } else {
      reply.type(API_TYPE);
      reply.header('cache-control', API_CACHE_CONTROL);
      reply.header('vary', API_VARY);
    }
    reply.header('etag', entry.etag);
    reply.header('x-cache', state);
    if (request.headers['if-none-match'] === entry.etag) return reply.status(304).send();
    reply.status(entry.status);
    const { body, encoding } = chooseEncoding(request.headers['accept-encoding'], entry);
    if (encoding) reply.header('content-encoding', encoding);
    return reply.send(body);
  };

  // Declared before any request, so every request object has the same shape whether a
  // request is cached or not (Fastify's advice for properties set per request).
  app.decorateRequest('responseCacheKey', undefined);
  app.decorateRequest('finishRender', undefined);
  app.addHook('onRequest', async (request, reply) => {
    const key = await keyFor(request);
    if (!key) return;
    request.responseCacheKey = key;
    const hit = cacheFor(key).get(key);
    if (hit) return send(request, reply, hit, 'hit');
    // A miss: another request may be rendering this key already (shared-renders.ts).
    const turn = await renders.turn(key);
    if (turn.entry) return send(request, reply, turn.entry, 'hit');
    request.finishRender = turn.finish;
  });

  // API answers are stored as they leave; pages are stored by the storefront handler. Every
  // answer to a request that rendered ends its render here at the latest, stored or not.
  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.responseCacheKey;
    if (!key) return payload;
    let entry: CachedPage | undefined;
    if (
      key.startsWith('api|') &&
      reply.statusCode === 200 &&
      typeof payload === 'string' &&
      reply.getHeader('x-cache') !== 'hit' &&
      request.ctx?.privacy.personal === false
    ) {
      entry = cacheFor(key).set(key, { status: 200, headers: new Headers(), body: Buffer.from(payload) });
      reply.header('etag', entry.etag);
      reply.header('cache-control', API_CACHE_CONTROL);
      reply.header('vary', API_VARY);
      reply.header('x-cache', 'miss');
    }
    request.finishRender?.(entry);
    return payload;
  });

  return {
    store(request, response) {
      // Whatever the key says, an answer that read a session or a cart is never shared.
      const entry =
        request.responseCacheKey?.startsWith('page|') && request.ctx?.privacy.personal === false
          ? cacheFor(request.responseCacheKey).set(request.responseCacheKey, response)
          : undefined;
      request.finishRender?.(entry);
      return entry;
    },
    send,
    frontDoor,
  };
}

/** A render not finished by then lets the requests waiting for it render for themselves. */
const SHARED_RENDER_MAX_WAIT_MS = 10_000;
/** After a render of a key stored nothing, requests for it do not wait for each other this long. */
const UNSTORED_RENDER_PASS_MS = 5_000;

const HIT_SUMMARY_INTERVAL_MS = 60_000;

/**
 * Hits answered at the front door are counted, not logged one by one: a line per hit cost as
 * much CPU as the hit itself (docs/benchmarks.md, issue 13). A summary line goes out every
 * minute that had hits and when the server closes; LOG_LEVEL=debug still logs every hit.
 */
function tallyHits(app: FastifyInstance, log: AppContext['log']) {
  let tally = { pages: 0, api: 0, notModified: 0 };
  const since = { at: Date.now() };
  const report = () => {
    if (tally.pages + tally.api === 0) return;
    log.info({ cacheHits: tally, seconds: Math.round((Date.now() - since.at) / 1000) }, 'cache hits');
    tally = { pages: 0, api: 0, notModified: 0 };
    since.at = Date.now();
  };
  const timer = setInterval(report, HIT_SUMMARY_INTERVAL_MS).unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    report();
  });
  return {
    logEach: log.isLevelEnabled('debug'),
    count(isPage: boolean, notModified: boolean) {
      if (isPage) tally.pages++;
      else tally.api++;
      if (notModified) tally.notModified++;
    },
  };
}
