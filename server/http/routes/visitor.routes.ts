import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { visitorView } from '../../domains/customers/accounts.schemas';
import { defaultAddress } from '../../domains/addresses/addresses.service';
import { cartCount } from '../../domains/cart/cart.service';
import { SHIP_TO_COOKIE } from '../../shared/ship-to-hint';
import { secureCookies } from '../../shared/site-origin';
import { clearSessionCookie, optionalUser, presentedCredentials } from '../auth';
import { answers, ok } from '../envelope';
import { cartOwner } from '../guest-cart';

/** The country of the buyer's default address, for the product page's shipping promise (server/shared/ship-to-hint.ts). */
async function rememberShipTo(request: FastifyRequest, reply: FastifyReply, userId: number): Promise<void> {
  const country = (await defaultAddress(request.ctx, userId))?.countryCode;
  if (country === request.cookies[SHIP_TO_COOKIE]) return;
  const options = { path: '/', sameSite: 'lax' as const, secure: secureCookies(request.ctx.env) };
  if (country) reply.setCookie(SHIP_TO_COOKIE, country, { ...options, maxAge: SHIP_TO_MAX_AGE_SECONDS });
  else reply.clearCookie(SHIP_TO_COOKIE, options);
}

const SHIP_TO_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

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
      // Every page of a signed-in buyer asks this: the two reads go out together.
      const [cart_count] = await Promise.all([
        cartOwner(request, reply, false).then((cartKey) => cartCount(request.ctx, cartKey)),
        user ? rememberShipTo(request, reply, user.id) : undefined,
      ]);
      return ok({ user: user ? { username: user.username, avatar: user.avatar } : null, cart_count });
    },
  );
};
