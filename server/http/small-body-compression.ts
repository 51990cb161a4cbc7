import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { preferredEncoding } from './page-cache';

/** Below this a body is sent as it is (a header or two would outweigh the saving). */
export const COMPRESSION_THRESHOLD_BYTES = 1024;
/** Up to this a body is compressed in one call on the request's own thread; larger ones stream through @fastify/compress. */
export const SMALL_BODY_LIMIT_BYTES = 64 * 1024;
/** Brotli's default (11) costs far more CPU than it saves on answers made per request. */
export const DYNAMIC_BROTLI_QUALITY = 4;

const BROTLI_OPTIONS = { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY } };
const COMPRESSIBLE = /^text\/(?!event-stream)|(?:\+|\/)json(?:;|$)|(?:\+|\/)xml(?:;|$)/;

function appendVary(current: unknown, field: string): string {
  const vary = typeof current === 'string' ? current : Array.isArray(current) ? current.join(', ') : '';
  if (new RegExp(`(^|,)\\s*${field}\\s*(,|$)`, 'i').test(vary)) return vary;
  return vary ? `${vary}, ${field}` : field;
}

/**
 * API answers and page renders are mostly a few kilobytes. @fastify/compress streams every body
 * through zlib (an async iterator, a pipeline, a compressor per answer), and that machinery cost
 * more CPU than the compression itself: about a tenth of `GET /v1/order/list`'s. A string or
 * Buffer body up to SMALL_BODY_LIMIT_BYTES is compressed here in one call and sent with its
 * length; the plugin, registered after, leaves an encoded body alone and still streams the rest.
 * The same encodings, quality and threshold as the plugin's settings in app.ts.
 */
export function compressSmallBodies(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
    const size = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
    if (size < COMPRESSION_THRESHOLD_BYTES || size > SMALL_BODY_LIMIT_BYTES) return done(null, payload);
    if (reply.getHeader('content-encoding') || request.headers['x-no-compression'] !== undefined)
      return done(null, payload);
    const contentType = reply.getHeader('content-type');
    if (typeof contentType !== 'string' || !COMPRESSIBLE.test(contentType)) return done(null, payload);
    const accepted = request.headers['accept-encoding'];
    const encoding = accepted ? preferredEncoding(accepted) : undefined;
    if (!encoding) return done(null, payload);
    const body = encoding === 'br' ? brotliCompressSync(payload, BROTLI_OPTIONS) : gzipSync(payload);
    reply.header('content-encoding', encoding);
    reply.header('vary', appendVary(reply.getHeader('vary'), 'Accept-Encoding'));
    reply.header('content-length', body.length);
    done(null, body);
  });
}
