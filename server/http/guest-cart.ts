import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { guestCartKey, mergeGuestCart, userCartKey, type CartKey } from '../domains/cart/cart.service';
import { GUEST_CART_COOKIE } from '../shared/cookies';
import { secureCookies } from '../shared/site-origin';

/*
 * The API's visitor cart (cart.routes.ts) and its hand-over at sign-in (user.routes.ts): the
 * cookie is httpOnly and lives 30 days; once its visitor signs in, the cart joins the account.
 */

const GUEST_CART_ID = /^[A-Za-z0-9_-]{16,64}$/;
const COOKIE_MAX_AGE = 30 * 24 * 60 * 60;

function guestCartId(request: FastifyRequest): string | undefined {
  const value = request.cookies[GUEST_CART_COOKIE];
  return value && GUEST_CART_ID.test(value) ? value : undefined;
}

/** Moves a visitor's cart into the account that just signed in, and retires the visitor cookie. */
export async function adoptGuestCart(request: FastifyRequest, reply: FastifyReply, userId: number): Promise<void> {
  const guest = guestCartId(request);
  if (!guest) return;
  await mergeGuestCart(request.ctx, { guestCartId: guest, userId });
  reply.clearCookie(GUEST_CART_COOKIE, { path: '/' });
}

/**
 * Whose cart a request works on. A signed-in buyer who still carries a guest cart cookie
 * gets that cart merged into the account here (and the cookie cleared), so a login path
 * that forgot to merge loses nothing.
 */
export async function cartOwner(
  request: FastifyRequest,
  reply: FastifyReply,
  create: boolean,
): Promise<CartKey | null> {
  const guest = guestCartId(request);
  const user = request.ctx.user;
  if (user) {
    await adoptGuestCart(request, reply, user.id);
    return userCartKey(user.id);
  }
  if (guest) return guestCartKey(guest);
  if (!create) return null;
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
