import { z } from 'zod';

/**
 * `POST /v1/upload` answers as the upload widget expects: code 0 and the image URL (the one
 * exception to code 200, docs/api.md). Failures keep the usual envelope.
 */
export const uploadAnswer = z.object({
  code: z.literal(0),
  msg: z.string(),
  data: z.string().describe('the URL of the stored image'),
});

/**
 * `POST /v1/upload?purpose=evidence` keeps the image private (an after-sale request's photo,
 * private-uploads.service.ts); without `purpose` it is public, as it always was.
 */
export const uploadQuery = z.object({
  purpose: z.enum(['evidence']).optional(),
});

/** Any text: an id that is not one of ours is answered 404 like an unknown one, never 400. */
export const privateUploadParams = z.object({
  id: z.string(),
});
