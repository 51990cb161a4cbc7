import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { blobStoreOf } from '../../domains/media/blob-stores';
import { imageVariant } from '../../domains/media/image-variants';
import { hashedImageKey } from '../../domains/media/media-images.service';
import { hashedImageParams, imageQuery } from '../../domains/media/media.schemas';
import { NotFoundError } from '../../shared/errors';
import { demoImageAddress } from '../../seed/demo-image-manifest';

/** A content-hashed address never changes meaning: browsers and CDNs keep it for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Older addresses (buyers' uploads, images put under a name) may be replaced under the same name. */
const REVALIDATED = 'public, max-age=604800, stale-while-revalidate=86400';
/** A demo picture's old address moves again only when the drawings change (ART_VERSION), so a day is plenty. */
const MOVED = 'public, max-age=86400';

async function sendImage(
  request: FastifyRequest,
  reply: FastifyReply,
  key: string | null,
  query: z.infer<typeof imageQuery>,
  cacheControl: string,
) {
  const image =
    key &&
    (await imageVariant(blobStoreOf(request.ctx.env), key, { width: query.w, quality: query.q, format: query.format }));
  if (!image) throw new NotFoundError();
  reply.header('etag', image.etag);
  reply.header('cache-control', cacheControl);
  if (request.headers['if-none-match'] === image.etag) {
    image.body.destroy();
    return reply.status(304).send();
  }
  reply.type(image.contentType);
  reply.header('content-length', image.size);
  return reply.send(image.body);
}

/**
 * `/images/demo/<name>.webp`, where the seed's pictures were served before they moved to the
 * blob store under content-hashed addresses (ADR 0150): order lines, mails and search engines
 * still hold these, so they redirect permanently to the picture's address now, `?w=` and all.
 */
async function redirectDemoImage(request: FastifyRequest, reply: FastifyReply, file: string) {
  const target = await demoImageAddress(blobStoreOf(request.ctx.env), file);
  if (!target) throw new NotFoundError();
  const query = request.url.indexOf('?');
  reply.header('cache-control', MOVED);
  return reply.redirect(query < 0 ? target : target + request.url.slice(query), 301);
}

/**
 * Images from the blob store (server/domains/media/blob-store.ts). `/images/h/<hash>.<ext>`:
 * the console's and the seed's pictures, immutable. `/images/demo/<name>.webp`: a redirect to
 * the seed's picture there. `/images/<path>`: other images kept under a name; registered with
 * `folder: 'uploads'`, `/uploads/<path>`: pictures buyers uploaded. `?w=` serves a resized
 * webp (widths snap to a fixed set, made once and kept in the store), `?format=webp&q=50` a
 * lighter copy (SPEC section 7's favicon and image suffix).
 */
export const imageRoutes: FastifyPluginAsyncZod<{ folder?: 'images' | 'uploads' }> = async (
  app,
  { folder = 'images' },
) => {
  if (folder === 'images')
    app.get(
      '/images/h/:file',
      { schema: { hide: true, params: hashedImageParams, querystring: imageQuery } },
      async (request, reply) =>
        sendImage(request, reply, hashedImageKey(request.params.file), request.query, IMMUTABLE),
    );
  app.get(`/${folder}/*`, { schema: { hide: true, querystring: imageQuery } }, async (request, reply) => {
    // The router has already decoded the path once; decoding again broke on `%25ZZ` (a 500).
    const relativePath = (request.params as { '*': string })['*'];
    if (folder === 'images' && relativePath.startsWith('demo/'))
      return redirectDemoImage(request, reply, relativePath.slice('demo/'.length));
    return sendImage(request, reply, `${folder}/${relativePath}`, request.query, REVALIDATED);
  });
};
