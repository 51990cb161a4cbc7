import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionLookup } from '../domains/customers/sessions.service';
import { currentContentVersion } from '../shared/content-version';
import { SHIP_TO_COOKIE } from '../shared/ship-to-hint';
import { GUEST_CART_COOKIE } from '../shared/cookies';
import { pathWithoutQuery } from '../shared/url-path';
import { pathLocaleOf } from './cache-keys';
import { chooseEncoding, PageCache, type CachedPage } from './page-cache';

/**
 * The account area (`/{locale}/my/...`, also as React Router data requests) is the same
 * document for one buyer until something it shows changes, and a buyer looks at My Orders
 * far more often than their orders change. So a render is kept for its session in this
 * process's memory, never in the shared response cache and never in Redis, keyed by
 * `users.pages_version` (moved by database triggers on every table those pages read, in the
 * same transaction as the change, whoever writes; migration 0016) and the content version.
 * The session lookup every signed-in request makes already returns that version, so a
 * kept page costs no statement beyond it and no rendering (ADR 0095).
 */
const ACCOUNT_PAGE_AFTER_LOCALE = /^\/my\/[\w/-]*(?:\.data)?$/;
/**
 * Forms whose render holds a one-time value (the after-sale request's idempotency key, made by
 * its loader) and options that depend on the catalogue and the clock: always rendered afresh.
 */
const FRESH_EVERY_TIME_AFTER_LOCALE = /^\/my\/order\/\d+\/after-sale(?:\.data)?$/;

/** The query parameters account pages read (the order tabs and paging) and React Router's own. */
const ACCOUNT_QUERY_PARAMS: ReadonlySet<string> = new Set(['status', 'page', '_routes']);

/** Cookies that change an account page's HTML besides the session. */
const VARYING_COOKIES = ['color_mode', 'currency', SHIP_TO_COOKIE, GUEST_CART_COOKIE] as const;

const PRIVATE_CACHE_CONTROL = 'private, no-store';

function isAccountPage(url: string): boolean {
  const path = pathWithoutQuery(url);
  const locale = pathLocaleOf(path);
  if (locale === undefined) return false;
  const page = path.slice(locale.length + 1);
  return ACCOUNT_PAGE_AFTER_LOCALE.test(page) && !FRESH_EVERY_TIME_AFTER_LOCALE.test(page);
}

function readsOnlyAccountParams(url: string): boolean {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return true;
  for (const pair of url.slice(queryStart + 1).split('&')) {
    const name = pair.split('=', 1)[0] ?? '';
    if (pair !== '' && !ACCOUNT_QUERY_PARAMS.has(name)) return false;
  }
  return true;
}

export interface PrivatePageCache {
  /**
   * The key of this request's page, or undefined when it must be rendered afresh: not an
   * account page, no active session, or the answer has to set a cookie (a session renewal, a
   * first CSRF or language cookie), which a kept page would not carry.
   */
  keyFor(
    request: FastifyRequest,
    session: SessionLookup,
    answer: { setsCookies: boolean },
  ): Promise<string | undefined>;
  get(key: string): CachedPage | undefined;
  /** Keeps a rendered page; undefined when it is not worth keeping (not a 200, or it sets cookies). */
  store(key: string, response: { status: number; headers: Headers; body: Buffer }): CachedPage | undefined;
  send(request: FastifyRequest, reply: FastifyReply, entry: CachedPage, state: 'hit' | 'miss'): FastifyReply;
}

export function createPrivatePageCache(options: { ttlSeconds: number; maxBytes: number }): PrivatePageCache | null {
  if (options.ttlSeconds <= 0) return null;
  const pages = new PageCache({ ttlMs: options.ttlSeconds * 1000, maxEntries: 20_000, maxBytes: options.maxBytes });

  return {
    async keyFor(request, session, answer) {
      if (request.method !== 'GET' || answer.setsCookies) return undefined;
      if (session.status !== 'active' || session.refreshDue) return undefined;
      const url = request.raw.url ?? '/';
      if (!isAccountPage(url) || !readsOnlyAccountParams(url)) return undefined;
      const cookies = request.cookies;
      const varying = VARYING_COOKIES.map((name) => cookies[name] ?? '').join('|');
      const content = await currentContentVersion(request.ctx);
      return `${session.user.sessionId}|${session.pagesVersion}|${content}|${request.host}|${url}|${varying}`;
    },
    get: (key) => pages.get(key),
    store(key, response) {
      if (response.status !== 200 || response.headers.has('set-cookie')) return undefined;
      return pages.set(key, response);
    },
    send(request, reply, entry, state) {
      for (const [name, value] of entry.headers) reply.header(name, value);
      reply.header('cache-control', PRIVATE_CACHE_CONTROL);
      reply.header('x-cache', `private-${state}`);
      reply.status(entry.status);
      const { body, encoding } = chooseEncoding(request.headers['accept-encoding'], entry);
      if (encoding) reply.header('content-encoding', encoding);
      return reply.send(body);
    },
  };
}
