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
