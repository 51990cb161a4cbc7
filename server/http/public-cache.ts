import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { currentContentVersion } from '../shared/content-version';
import { chooseEncoding, PageCache, type CachedPage } from './page-cache';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The answer depends only on the URL, the language and the content version: cache it. */
    publicCache?: boolean;
  }
  interface FastifyRequest {
    publicCacheKey?: string;
  }
}

function sendCached(request: FastifyRequest, reply: FastifyReply, entry: CachedPage) {
  reply.header('etag', entry.etag);
  reply.header('cache-control', 'public, max-age=0, must-revalidate');
  reply.header('vary', 'lang, Accept-Language, Cookie, Accept-Encoding');
  reply.header('x-api-cache', 'hit');
  if (request.headers['if-none-match'] === entry.etag) return reply.status(304).send();
  const { body, encoding } = chooseEncoding(request.headers['accept-encoding'], entry);
  if (encoding) reply.header('content-encoding', encoding);
  reply.type('application/json; charset=utf-8');
  return reply.send(body);
}

/**
 * Catalogue reads are the same for every visitor, so their serialized answers are kept per
 * process (with compressed copies) until the content version moves or the TTL passes. The
 * embedded database answers a product list in tens of milliseconds; a hit costs none of it.
 */
export function registerPublicCache(app: FastifyInstance, options: { ttlSeconds: number }): void {
  if (options.ttlSeconds <= 0) return;
  const cache = new PageCache({ ttlMs: options.ttlSeconds * 1000, maxEntries: 5_000, maxBytes: 64 * 1024 * 1024 });
  app.addHook('preHandler', async (request, reply) => {
    if (!reply.routeOptions.config.publicCache || request.method !== 'GET') return;
    const version = await currentContentVersion(request.ctx);
    request.publicCacheKey = `${request.ctx.locale}|${request.url}|${version}`;
    const hit = cache.get(request.publicCacheKey);
    if (hit) return sendCached(request, reply, hit);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.publicCacheKey || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    if (reply.getHeader('x-api-cache') === 'hit') return payload;
    const entry = cache.set(request.publicCacheKey, { status: 200, headers: new Headers(), body: Buffer.from(payload) });
    reply.header('etag', entry.etag);
    reply.header('cache-control', 'public, max-age=0, must-revalidate');
    reply.header('vary', 'lang, Accept-Language, Cookie, Accept-Encoding');
    reply.header('x-api-cache', 'miss');
    return payload;
  });
}
