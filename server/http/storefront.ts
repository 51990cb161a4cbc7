import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createRequestHandler, type ServerBuild } from 'react-router';
import { services, type StorefrontLoadContext } from '../services';
import { UNVERSIONED_BRAND, type BrandFiles } from './brand-files';
import { BadRequestError } from '../shared/errors';
import { resolveSession } from './auth';
import { isSharedPage, pathLocaleOf, withoutTrackingParams } from './cache-keys';
import { CSRF_COOKIE } from './csrf';
import type { PrivatePageCache } from './private-page-cache';
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE } from './request-context';
import type { ResponseCache } from './response-cache';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { clientGoneSignal } from './client-gone';

export type ServerBuildSource = () => Promise<ServerBuild>;

/** A host name or IP literal and an optional port: nothing a URL would read as credentials or a path. */
const HOST = /^(?:\[[\dA-Fa-f:.]+\]|[\w.-]+)(?::\d{1,5})?$/;

/** The page's address; a Host header that is not a host (`a b`, `[`, `shop@evil.example`) is the client's mistake. */
function pageUrl(request: FastifyRequest): URL {
  if (HOST.test(request.host)) {
    try {
      return new URL(withoutTrackingParams(request.url), `${request.protocol}://${request.host}`);
    } catch {
      // a port out of range
    }
  }
  throw new BadRequestError('error.invalidHost');
}

function toWebRequest(request: FastifyRequest, reply: FastifyReply): Request {
  const url = pageUrl(request);
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, String(value));
  }
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && Buffer.isBuffer(request.body);
  return new Request(url, {
    method: request.method,
    headers,
    // A render the cache will keep finishes when its visitor leaves: others may be waiting for it (ADR 0185).
    signal: request.responseCacheKey ? undefined : clientGoneSignal(reply),
    body: hasBody ? new Uint8Array(request.body as Buffer) : undefined,
  });
}

/** Sends a rendered page; `readBody` when the body was already read (to offer it to the cache). */
function sendWebResponse(reply: FastifyReply, response: Response, readBody?: Buffer) {
  reply.status(response.status);
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie') reply.header(name, value);
  }
  for (const cookie of response.headers.getSetCookie()) reply.header('set-cookie', cookie);
  if (readBody) return reply.send(readBody);
  if (!response.body) return reply.send();
  return reply.send(Readable.fromWeb(response.body as WebReadableStream));
}

/**
 * Every path that is not API, health or a static file is a storefront page rendered by
 * React Router. Catalogue pages are rendered without reading a session, for signed-in buyers
 * too, and stored in the response cache (server/http/response-cache.ts), which answers
 * repeats before this handler runs; a render that read a session or a cart is never stored
 * and is sent `private, no-store`. Bodies of page form posts arrive as raw bytes (within the body limit) and are
 * handed to React Router unparsed.
 */
export async function registerStorefront(
  app: FastifyInstance,
  options: {
    loadBuild: ServerBuildSource;
    mode: 'development' | 'production';
    responseCache?: ResponseCache | null;
    privatePages?: PrivatePageCache | null;
    brand?: BrandFiles;
  },
): Promise<void> {
  const cache = options.mode === 'production' ? options.responseCache : null;
  const privatePages = options.mode === 'production' ? options.privatePages : null;

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
      config: { storefrontPage: true },
      handler: async (request, reply) => {
        const pathLocale = pathLocaleOf(request.url);
        const setsCookies =
          !request.cookies[CSRF_COOKIE] || (pathLocale !== undefined && request.cookies[LOCALE_COOKIE] !== pathLocale);
        reply.issueCsrfCookie();
        // Remembering the language here rather than in a loader keeps cached pages free of Set-Cookie.
        if (pathLocale && request.cookies[LOCALE_COOKIE] !== pathLocale) {
          reply.setCookie(LOCALE_COOKIE, pathLocale, { path: '/', maxAge: LOCALE_COOKIE_MAX_AGE, sameSite: 'lax' });
        }
        // A catalogue page is rendered for nobody in particular, whoever asks (cache-keys.ts);
        // a form post is an action, which may need to know whose it is.
        const isRead = request.method === 'GET' || request.method === 'HEAD';
        const session = isRead && isSharedPage(request.url) ? null : await resolveSession(request, reply);
        const privateKey =
          session && privatePages ? await privatePages.keyFor(request, session, { setsCookies }) : undefined;
        const kept = privateKey && privatePages?.get(privateKey);
        if (kept && privatePages) return privatePages.send(request, reply, kept, 'hit');
        const context: StorefrontLoadContext = {
          ctx: pathLocale ? { ...request.ctx, locale: pathLocale } : request.ctx,
          services,
          brand: options.brand ?? UNVERSIONED_BRAND,
        };
        const handle = await handlerFor();
        const response = await handle(toWebRequest(request, reply), context as never);

        if (privateKey && privatePages && response.status === 200 && response.body) {
          const body = Buffer.from(await response.arrayBuffer());
          const entry = privatePages.store(privateKey, { status: response.status, headers: response.headers, body });
          return entry ? privatePages.send(request, reply, entry, 'miss') : sendWebResponse(reply, response, body);
        }

        // store() refuses anything that read a session or a cart (request.ctx.privacy).
        if (
          cache &&
          request.responseCacheKey &&
          response.status === 200 &&
          !response.headers.has('set-cookie') &&
          response.body
        ) {
          const body = Buffer.from(await response.arrayBuffer());
          const entry = cache.store(request, { status: response.status, headers: response.headers, body });
          // Refused (the render read something personal): the body was read already, so send that.
          return entry ? cache.send(request, reply, entry, 'miss') : sendWebResponse(reply, response, body);
        }
        return sendWebResponse(reply, response);
      },
    });
  });
}
