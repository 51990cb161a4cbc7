import fs from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { imageVariant } from '../../domains/media/image-variants';
import { imageQuery } from '../../domains/media/media.schemas';
import { NotFoundError } from '../../shared/errors';

/**
 * `/images/<path>`: product and content images from DATA_DIR/images (and, registered with
 * `folder: 'uploads'`, `/uploads/<path>`: pictures customers uploaded). `?w=` serves a
 * resized webp (widths snap to a fixed set), `?format=webp&q=50` a lighter copy (SPEC
 * section 7's favicon and image suffix).
 */
export const imageRoutes: FastifyPluginAsyncZod<{ dataDir: string; folder?: 'images' | 'uploads' }> = async (
  app,
  { dataDir, folder = 'images' },
) => {
  const imagesRoot = path.join(dataDir, folder);
  const cacheRoot = path.join(dataDir, 'cache', folder);
  app.get(`/${folder}/*`, { schema: { hide: true, querystring: imageQuery } }, async (request, reply) => {
    // The router has already decoded the path once; decoding again broke on `%25ZZ` (a 500).
    const relativePath = (request.params as { '*': string })['*'];
    const image = await imageVariant(imagesRoot, cacheRoot, {
      relativePath,
      width: request.query.w,
      quality: request.query.q,
      format: request.query.format,
    });
    if (!image) throw new NotFoundError();
    reply.header('etag', image.etag);
    reply.header('cache-control', 'public, max-age=604800, stale-while-revalidate=86400');
    if (request.headers['if-none-match'] === image.etag) return reply.status(304).send();
    reply.type(image.contentType);
    reply.header('content-length', image.size);
    return reply.send(fs.createReadStream(image.file));
  });
};
