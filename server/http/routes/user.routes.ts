import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../auth';
import { envelopeOf, ok } from '../envelope';

const currentUserSchema = z.object({
  uid: z.number().int(),
  email: z.string(),
  username: z.string(),
  avatar: z.string().nullable(),
  sex: z.number().int(),
});

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/user/info',
    {
      preHandler: requireUser,
      schema: { tags: ['user'], summary: 'The logged-in user (login required)', response: { 200: envelopeOf(currentUserSchema) } },
    },
    async (request) => {
      const user = request.ctx.user!;
      return ok({ uid: user.id, email: user.email, username: user.username, avatar: user.avatar, sex: user.sex });
    },
  );
};
