import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { captchaRequest, issuedCaptcha } from '../../domains/captcha/captcha.schemas';
import { createCaptcha } from '../../domains/captcha/captcha.service';
import { answers, ok } from '../envelope';

/**
 * `POST /v1/captcha` (SPEC section 7) and `GET /v1/captcha`, which issues a fresh digit
 * captcha the same way for clients that cannot post. Neither answer may be cached.
 */
export const captchaRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/captcha',
    {
      schema: {
        tags: ['captcha'],
        summary: 'A new digit captcha: id and a 300x300 PNG data URL',
        body: captchaRequest.optional(),
        response: answers(issuedCaptcha, 'write', 'tooMany'),
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await createCaptcha(request.ctx, { clientIp: request.ip }));
    },
  );
  app.get(
    '/captcha',
    {
      schema: {
        tags: ['captcha'],
        summary: 'Same as POST /captcha with captcha_type digit',
        response: answers(issuedCaptcha, 'tooMany'),
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await createCaptcha(request.ctx, { clientIp: request.ip }));
    },
  );
};
