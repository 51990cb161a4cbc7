import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MEDIA_MAX_FILES,
  MediaTooLargeError,
  storeConsoleImages,
  type IncomingImage,
  type MediaPurpose,
} from '../../domains/media/media-images.service';
import { storedImages } from '../../domains/media/media.schemas';
import { formatSize } from '../../domains/uploads/uploads.service';
import { BadRequestError } from '../../shared/errors';
import { actingContext } from '../admin-api';
import { answers, ok } from '../envelope';

/**
 * Reads every file part of a multipart body (any field name), each within `MEDIA_MAX_BYTES`.
 * A file over the limit is refused with 413 before the rest of it is held in memory.
 */
async function readImages(request: FastifyRequest): Promise<IncomingImage[]> {
  if (!request.isMultipart()) throw new BadRequestError('adminMedia.missing');
  const limit = request.ctx.env.MEDIA_MAX_BYTES;
  const images: IncomingImage[] = [];
  let current = '';
  try {
    for await (const part of request.files({ limits: { fileSize: limit, files: MEDIA_MAX_FILES } })) {
      current = part.filename || part.fieldname;
      images.push({ name: current, bytes: await part.toBuffer() });
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new MediaTooLargeError(current, formatSize(limit));
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw new BadRequestError('adminMedia.tooMany', { limit: MEDIA_MAX_FILES });
    throw error;
  }
  return images;
}

const upload = (purpose: MediaPurpose) => async (request: FastifyRequest) =>
  ok({ images: await storeConsoleImages(actingContext(request), { images: await readImages(request), purpose }) });

/**
 * The console's image upload (docs/api.md, "Console images"): one or several images in a
 * multipart body, stored under content-hashed URLs. Product images need `catalog:write`;
 * logos, favicons and content images `settings:write`.
 */
export const adminMediaRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, { limits: { files: MEDIA_MAX_FILES, fields: 10, fieldSize: 1024, parts: 20 } });
  const schema = (summary: string) => ({
    tags: ['admin'],
    summary,
    consumes: ['multipart/form-data'],
    response: answers(storedImages, 'write', 'login', 'forbidden'),
  });
  app.post(
    '/media/images',
    {
      config: { permission: 'catalog:write' },
      schema: schema('Upload product images (multipart, 1-10 files): content-hashed URLs with width and height'),
    },
    upload('catalog'),
  );
  app.post(
    '/media/site-images',
    {
      config: { permission: 'settings:write' },
      schema: schema('Upload a logo, favicon or content image (multipart, 1-10 files), as /media/images'),
    },
    upload('site'),
  );
};
