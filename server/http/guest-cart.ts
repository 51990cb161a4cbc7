import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { guestCartKey, requestCart, type CartKey } from '../domains/cart/cart.service';
import { GUEST_CART_COOKIE } from '../shared/cookies';
import { secureCookies } from '../shared/site-origin';

/*
 * The API's visitor cart (cart.routes.ts) and its hand-over at sign-in (user.routes.ts): the
 * cookie is httpOnly and lives 30 days; once its visitor signs in, the cart joins the account.
 */

const COOKIE_MAX_AGE = 30 * 24 * 60 * 60;

/**
 * Whose cart a request works on (`requestCart`), for the signed-in buyer (`userId`, default the
 * request's) or the visitor. A guest cart taken into the account loses its cookie here, so a
 * login path that forgot to merge loses nothing. With `create`, a visitor without a cart gets one.
 */
async function ownerOf(
  request: FastifyRequest,
  reply: FastifyReply,
  options: { userId?: number; create: boolean },
): Promise<CartKey | null> {
  const { cartKey, guestCartAdopted } = await requestCart(request.ctx, {
    userId: options.userId ?? request.ctx.user?.id,
    guestCartCookie: request.cookies[GUEST_CART_COOKIE],
  });
  if (guestCartAdopted) reply.clearCookie(GUEST_CART_COOKIE, { path: '/' });
  if (cartKey || !options.create) return cartKey;
  const id = randomBytes(18).toString('base64url');
  reply.setCookie(GUEST_CART_COOKIE, id, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookies(request.ctx.env),
    maxAge: COOKIE_MAX_AGE,
  });
  return guestCartKey(id);
}

/** Moves a visitor's cart into the account that just signed in, and retires the visitor cookie. */
export async function adoptGuestCart(request: FastifyRequest, reply: FastifyReply, userId: number): Promise<void> {
  await ownerOf(request, reply, { userId, create: false });
}

/** The cart a request reads (null: a visitor without one) or, with `create`, writes to. */
export function cartOwner(request: FastifyRequest, reply: FastifyReply, create: false): Promise<CartKey | null>;
export function cartOwner(request: FastifyRequest, reply: FastifyReply, create: true): Promise<CartKey>;
export async function cartOwner(request: FastifyRequest, reply: FastifyReply, create: boolean) {
  return ownerOf(request, reply, { create });
}
