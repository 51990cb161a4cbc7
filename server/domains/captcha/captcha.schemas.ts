import { z } from 'zod';

/** `POST /v1/captcha`: the original client's fields; only the digit captcha exists. */
export const captchaRequest = z.object({
  captcha_type: z.literal('digit').default('digit'),
  /** Accepted for the original client; not used (docs/api.md). */
  verify_value: z.union([z.string(), z.number()]).optional(),
});

export const issuedCaptcha = z.object({
  id: z.string(),
  data: z.string().describe('`data:image/png;base64,...`, 300x300'),
});
export type IssuedCaptcha = z.infer<typeof issuedCaptcha>;
