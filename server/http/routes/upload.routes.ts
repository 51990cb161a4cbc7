import fs from 'node:fs';
import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { translate } from '../../../i18n';
import { countAttempt } from '../../domains/customers/rate-limits';
import { imageVariant } from '../../domains/media/image-variants';
import { storeUploadedImage } from '../../domains/uploads/uploads.service';
import { AppError, BadRequestError, NotFoundError } from '../../shared/errors';
import { requireUser } from '../auth';

class UploadTooLargeError extends AppError {
  constructor(limit: string) {
    super('accounts.upload.tooLarge', 413, 413, { limit });
  }
}

function formatLimit(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;
}

/**
 * `POST /v1/upload` (SPEC sections 2, 3, 5): one image in a multipart field (default name
 * `image`), login required. Success answers `{code: 0, msg, data: url}` as the upload widget
 * expects (the one exception to code 200, docs/api.md); failures keep the usual envelope.
 */
export const uploadRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, { limits: { files: 1, fields: 10, fieldSize: 1024, parts: 12 } });
  app.post(
    '/upload',
    {
      preHandler: requireUser,
      schema: {
        tags: ['upload'],
        summary: 'Upload an image (multipart field `image`); answers code 0 and the image URL',
        consumes: ['multipart/form-data'],
        response: { 200: z.object({ code: z.literal(0), msg: z.string(), data: z.string() }) },
      },
    },
    async (request) => {
      const { env } = request.ctx;
      await countAttempt(request.ctx, 'upload.user', String(request.ctx.user!.id));
      let file;
      try {
        file = await request.file({ limits: { fileSize: env.UPLOAD_MAX_BYTES } });
      } catch {
        throw new BadRequestError('accounts.upload.missing');
      }
      if (!file) throw new BadRequestError('accounts.upload.missing');
      if (!file.mimetype.startsWith('image/')) {
        file.file.resume();
        throw new BadRequestError('accounts.upload.notImage');
      }
      let bytes: Buffer;
      try {
        bytes = await file.toBuffer();
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new UploadTooLargeError(formatLimit(env.UPLOAD_MAX_BYTES));
        throw error;
      }
      const { url } = await storeUploadedImage(request.ctx, { bytes, mimetype: file.mimetype });
      return { code: 0 as const, msg: translate(request.ctx.locale, 'accounts.upload.ok'), data: url };
    },
  );
};

const imageQuery = z.object({
  w: z.coerce.number().int().min(16).max(4000).optional(),
  q: z.coerce.number().int().min(1).max(100).optional(),
  format: z.enum(['webp', 'original']).optional(),
});

/** `/uploads/<month>/<name>.webp`: uploaded images, with the same `?w=` and `?q=` variants as `/images`. */
export const uploadedImageRoutes: FastifyPluginAsyncZod<{ dataDir: string }> = async (app, { dataDir }) => {
  const root = path.join(dataDir, 'uploads');
  const cacheRoot = path.join(dataDir, 'cache', 'uploads');
  app.get('/uploads/*', { schema: { hide: true, querystring: imageQuery } }, async (request, reply) => {
    const relativePath = decodeURIComponent((request.params as { '*': string })['*']);
    const image = await imageVariant(root, cacheRoot, { relativePath, width: request.query.w, quality: request.query.q, format: request.query.format });
    if (!image) throw new NotFoundError();
    reply.header('etag', image.etag);
    reply.header('cache-control', 'public, max-age=604800, immutable');
    reply.header('x-content-type-options', 'nosniff');
    if (request.headers['if-none-match'] === image.etag) return reply.status(304).send();
    reply.type(image.contentType);
    reply.header('content-length', image.size);
    return reply.send(fs.createReadStream(image.file));
  });
};
