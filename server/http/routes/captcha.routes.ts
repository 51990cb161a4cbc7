import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createCaptcha } from '../../domains/captcha/captcha.service';
import { envelopeOf, ok } from '../envelope';

const captchaSchema = z.object({ id: z.string(), data: z.string() });

const captchaRequest = z.object({
  captcha_type: z.literal('digit').default('digit'),
  /** Accepted for the original client; not used (docs/api.md). */
  verify_value: z.union([z.string(), z.number()]).optional(),
});

/**
 * `POST /v1/captcha` (SPEC section 7) and `GET /v1/captcha`, which issues a fresh digit
 * captcha the same way for clients that cannot post. Neither answer may be cached.
 */
export const captchaRoutes: FastifyPluginAsyncZod = async (app) => {
  const schema = { tags: ['captcha'], response: { 200: envelopeOf(captchaSchema) } };
  app.post(
    '/captcha',
    { schema: { ...schema, summary: 'A new digit captcha: id and a 300x300 PNG data URL', body: captchaRequest.optional() } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await createCaptcha(request.ctx, { clientIp: request.ip }));
    },
  );
  app.get('/captcha', { schema: { ...schema, summary: 'Same as POST /captcha with captcha_type digit' } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return ok(await createCaptcha(request.ctx, { clientIp: request.ip }));
  });
};
