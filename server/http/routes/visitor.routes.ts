import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { visitorView } from '../../domains/customers/accounts.schemas';
import { cartCount } from '../../domains/cart/cart.service';
import { clearSessionCookie, optionalUser, presentedCredentials } from '../auth';
import { answers, ok } from '../envelope';
import { cartOwner } from '../guest-cart';

/** The header's personal parts in one call, for pages served from the shared cache. */
export const visitorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('preHandler', optionalUser);

  app.get(
    '/visitor',
    {
      schema: {
        tags: ['user'],
        summary: "Who is looking (name and picture when signed in, else null) and their cart's item count",
        response: answers(visitorView),
      },
    },
    async (request, reply) => {
      const user = request.ctx.user;
      // A stale session cookie (and with it the signed-in hint) goes, so the page stops waiting for a name.
      if (!user && presentedCredentials(request)?.via === 'cookie') clearSessionCookie(reply);
      return ok({
        user: user ? { username: user.username, avatar: user.avatar } : null,
        cart_count: await cartCount(request.ctx, await cartOwner(request, reply, false)),
      });
    },
  );
};
