import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { translate } from '../../../i18n';
import { countAttempt } from '../../shared/rate-limits';
import type { Permission } from '../../domains/staff/permissions';
import { lookupStaffSession } from '../../domains/staff/staff-sessions.service';
import { assertUploadAllowance, countStoredUpload } from '../../domains/uploads/upload-quota';
import { privateUploadForViewer, storePrivateImage } from '../../domains/uploads/private-uploads.service';
import { privateUploadParams, uploadAnswer, uploadQuery } from '../../domains/uploads/uploads.schemas';
import { formatSize, storeUploadedImage } from '../../domains/uploads/uploads.service';
import { AppError, BadRequestError, NotFoundError } from '../../shared/errors';
import { staffSessionCookieName } from '../admin-api';
import { optionalUser, requireUser } from '../auth';
import { failures } from '../envelope';

class UploadTooLargeError extends AppError {
  constructor(limit: string) {
    super('payloadTooLarge', 'accounts.upload.tooLarge', { limit });
  }
}

/** Staff who may read orders or after-sale requests may see the evidence photos of every request. */
const EVIDENCE_READER_PERMISSIONS: readonly Permission[] = ['aftersales:read', 'orders:read'];

/**
 * The browser may keep an evidence photo for an hour (a page of nine thumbnails is not nine
 * requests on every visit); `private` keeps every shared cache out.
 */
const PRIVATE_IMAGE_CACHE_CONTROL = 'private, max-age=3600';

/**
 * Whether a staff member who may see evidence photos is signed in on this browser. The console's
 * cookie is read here, outside `/v1/admin`, only to show staff a buyer's evidence photo: it is
 * SameSite=Strict, so a cross-site page cannot make a browser send it, and this route only reads.
 */
async function staffMaySeeEvidence(request: FastifyRequest): Promise<boolean> {
  const token = request.cookies[staffSessionCookieName(request)];
  if (!token) return false;
  const lookup = await lookupStaffSession(request.ctx, token);
  return (
    lookup.status === 'active' &&
    !lookup.staff.mustEnrolSecondFactor &&
    EVIDENCE_READER_PERMISSIONS.some((permission) => lookup.staff.permissions.has(permission))
  );
}

/**
 * `POST /v1/upload` (SPEC sections 2, 3, 5): one image in a multipart field (default name
 * `image`), login required, within the buyer's upload allowance (upload-quota.ts). Success
 * answers `{code: 0, msg, data: url}` as the upload widget expects (the one exception to
 * code 200, docs/api.md); failures keep the usual envelope. With `?purpose=evidence` the
 * image is private (an after-sale request's photo) and its URL is
 * `GET /v1/upload/private/<id>`, served only to its owner and to staff who may read orders.
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
        querystring: uploadQuery,
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
      const image = { bytes, mimetype: file.mimetype };
      const { url, storedBytes } =
        request.query.purpose === 'evidence'
          ? await storePrivateImage(request.ctx, userId, image)
          : await storeUploadedImage(request.ctx, image);
      await countStoredUpload(request.ctx, userId, storedBytes);
      return { code: 0 as const, msg: translate(request.ctx.locale, 'accounts.upload.ok'), data: url };
    },
  );

  app.get(
    '/upload/private/:id',
    {
      preHandler: optionalUser,
      schema: {
        tags: ['upload'],
        summary: 'A private upload (image/webp), for its owner and staff who may read orders; 404 for anyone else',
        params: privateUploadParams,
        response: { 200: z.unknown().describe('the image, image/webp'), ...failures('notFound') },
      },
      // Set after the hook that gives every personal answer `private, no-store` (request-context.ts).
      onSend: async (_request, reply, payload) => {
        if (reply.statusCode === 200) reply.header('cache-control', PRIVATE_IMAGE_CACHE_CONTROL);
        return payload;
      },
    },
    async (request, reply) => {
      const upload = await privateUploadForViewer(request.ctx, request.params.id, {
        userId: request.ctx.user?.id ?? null,
        staffMaySeeEvidence: await staffMaySeeEvidence(request),
      });
      if (!upload) throw new NotFoundError();
      reply.type('image/webp');
      reply.header('content-length', upload.bytes);
      return reply.send(upload.body);
    },
  );
};
