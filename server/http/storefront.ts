import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createRequestHandler, type ServerBuild } from 'react-router';
import { isLocale } from '../../i18n/locales';
import { services } from '../services';
import { currentContentVersion } from '../shared/content-version';
import { ACCESS_TOKEN_COOKIE, resolveSession } from './auth';
import { LOCALE_COOKIE } from './request-context';
import { chooseEncoding, PageCache, type CachedPage } from './page-cache';
import type { StorefrontLoadContext } from './storefront-context';

export type ServerBuildSource = () => Promise<ServerBuild>;

const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;
/** Cookies whose value changes the rendered HTML of an anonymous page. */
const PAGE_VARYING_COOKIES = ['color_mode', 'currency'] as const;

function toWebRequest(request: FastifyRequest, reply: FastifyReply): Request {
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, String(value));
  }
  const controller = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && Buffer.isBuffer(request.body);
  return new Request(url, {
    method: request.method,
    headers,
    signal: controller.signal,
    body: hasBody ? new Uint8Array(request.body as Buffer) : undefined,
  });
}

function sendWebResponse(reply: FastifyReply, response: Response) {
  reply.status(response.status);
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie') reply.header(name, value);
  }
  for (const cookie of response.headers.getSetCookie()) reply.header('set-cookie', cookie);
  if (!response.body) return reply.send();
  return reply.send(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream));
}

function sendCachedPage(request: FastifyRequest, reply: FastifyReply, page: CachedPage, state: 'hit' | 'miss') {
  reply.status(page.status);
  for (const [name, value] of page.headers) reply.header(name, value);
  reply.header('etag', page.etag);
  reply.header('cache-control', 'no-cache');
  reply.header('vary', 'Cookie, Accept-Encoding');
  reply.header('x-page-cache', state);
  if (request.headers['if-none-match'] === page.etag) return reply.status(304).send();
  const { body, encoding } = chooseEncoding(request.headers['accept-encoding'], page);
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(body);
}

function pathLocaleOf(url: string) {
  const first = url.split('?')[0].split('/')[1];
  return isLocale(first) ? first : undefined;
}

/**
 * Every path that is not API, health or a static file is a storefront page rendered by
 * React Router. Anonymous GETs are served from the page cache when the content version
 * they were rendered at is still current; visitors with a session always get a fresh
 * render. Bodies of page form posts arrive as raw bytes (within the body limit) and are
 * handed to React Router unparsed.
 */
export async function registerStorefront(
  app: FastifyInstance,
  options: { loadBuild: ServerBuildSource; mode: 'development' | 'production'; pageCacheTtlSeconds?: number },
): Promise<void> {
  const cache =
    options.mode === 'production' && (options.pageCacheTtlSeconds ?? 60) > 0
      ? new PageCache({ ttlMs: (options.pageCacheTtlSeconds ?? 60) * 1000, maxEntries: 2_000, maxBytes: 128 * 1024 * 1024 })
      : null;

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

    let handler: ReturnType<typeof createRequestHandler> | undefined;
    const handlerFor = async () => {
      if (options.mode === 'development') return createRequestHandler(await options.loadBuild(), options.mode);
      handler ??= createRequestHandler(await options.loadBuild(), options.mode);
      return handler;
    };

    scope.route({
      method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url: '/*',
      handler: async (request, reply) => {
        const pathLocale = pathLocaleOf(request.url);
        reply.issueCsrfCookie();
        // Remembering the language here rather than in a loader keeps cached pages free of Set-Cookie.
        if (pathLocale && request.cookies[LOCALE_COOKIE] !== pathLocale) {
          reply.setCookie(LOCALE_COOKIE, pathLocale, { path: '/', maxAge: LOCALE_COOKIE_MAX_AGE, sameSite: 'lax' });
        }
        const hasSession = Boolean(request.cookies[ACCESS_TOKEN_COOKIE]);
        let cacheKey: string | undefined;
        if (cache && request.method === 'GET' && pathLocale && !hasSession) {
          const version = await currentContentVersion(request.ctx);
          const varying = PAGE_VARYING_COOKIES.map((name) => request.cookies[name] ?? '').join('|');
          cacheKey = `${request.host}${request.url}|${varying}|${version}`;
          const hit = cache.get(cacheKey);
          if (hit) return sendCachedPage(request, reply, hit, 'hit');
        }

        if (hasSession) await resolveSession(request);
        const context: StorefrontLoadContext = {
          ctx: pathLocale ? { ...request.ctx, locale: pathLocale } : request.ctx,
          services,
        };
        const handle = await handlerFor();
        const response = await handle(toWebRequest(request, reply), context as never);

        if (cacheKey && response.status === 200 && !response.headers.has('set-cookie') && response.body) {
          const body = Buffer.from(await response.arrayBuffer());
          return sendCachedPage(request, reply, cache!.set(cacheKey, { status: response.status, headers: response.headers, body }), 'miss');
        }
        if (hasSession) reply.header('cache-control', 'private, no-store');
        return sendWebResponse(reply, response);
      },
    });
  });
}
