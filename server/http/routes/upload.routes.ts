import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { translate } from '../../../i18n';
import { countAttempt } from '../../shared/rate-limits';
import { assertUploadAllowance, countStoredUpload } from '../../domains/uploads/upload-quota';
import { uploadAnswer } from '../../domains/uploads/uploads.schemas';
import { formatSize, storeUploadedImage } from '../../domains/uploads/uploads.service';
import { AppError, BadRequestError } from '../../shared/errors';
import { requireUser } from '../auth';
import { failures } from '../envelope';

class UploadTooLargeError extends AppError {
  constructor(limit: string) {
    super('payloadTooLarge', 'accounts.upload.tooLarge', { limit });
  }
}

/**
 * `POST /v1/upload` (SPEC sections 2, 3, 5): one image in a multipart field (default name
 * `image`), login required, within the buyer's upload allowance (upload-quota.ts). Success
 * answers `{code: 0, msg, data: url}` as the upload widget expects (the one exception to
 * code 200, docs/api.md); failures keep the usual envelope.
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
        response: { 200: uploadAnswer, ...failures('write', 'login', 'tooMany') },
      },
    },
    async (request) => {
      const { env } = request.ctx;
      const userId = request.ctx.user!.id;
      await countAttempt(request.ctx, 'upload.user', String(userId));
      await assertUploadAllowance(request.ctx, userId);
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
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
          throw new UploadTooLargeError(formatSize(env.UPLOAD_MAX_BYTES));
        throw error;
      }
      const { url, storedBytes } = await storeUploadedImage(request.ctx, { bytes, mimetype: file.mimetype });
      await countStoredUpload(request.ctx, userId, storedBytes);
      return { code: 0 as const, msg: translate(request.ctx.locale, 'accounts.upload.ok'), data: url };
    },
  );
};
