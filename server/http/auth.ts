import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  lookupSession,
  rotateSession,
  type IssuedSession,
  type SessionLookup,
} from '../domains/customers/sessions.service';
import { markPersonal } from '../context';
import type { Locale } from '../../i18n/locales';
import type { CookieJar } from '../shared/cookies';
import { LoginRequiredError, SessionExpiredError } from '../shared/errors';
import { secureCookies } from '../shared/site-origin';
import { SHIP_TO_COOKIE } from '../shared/ship-to-hint';
import { SIGNED_IN_HINT_COOKIE } from '../shared/signed-in-hint';

export const ACCESS_TOKEN_COOKIE = 'access_token';
export const REFRESH_TOKEN_HEADER = 'refresh-token';
export const REFRESH_EXPIRE_HEADER = 'refresh-token-expire';
export const REFRESH_SIGN_HEADER = 'refresh-sign';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * True when a request presents a buyer's credentials, whatever they turn out to be worth (an
 * empty or stale cookie counts): its answer is personal, and the response cache neither
 * serves nor stores it. Cookies come from the shop's one parser (server/shared/cookies.ts).
 */
export function presentsCredentials(headers: IncomingHttpHeaders, cookies: CookieJar): boolean {
  return cookies[ACCESS_TOKEN_COOKIE] !== undefined || headers.token !== undefined;
}

/**
 * The token a request presents: the `token` header (API clients, which must also send
 * `sign`) or the httpOnly `access_token` cookie (the web storefront).
 */
export function presentedCredentials(request: FastifyRequest) {
  const headerToken = header(request, 'token');
  if (headerToken) return { token: headerToken, sign: header(request, 'sign') ?? null, via: 'header' as const };
  const cookieToken = request.cookies?.[ACCESS_TOKEN_COOKIE];
  if (cookieToken) return { token: cookieToken, sign: undefined, via: 'cookie' as const };
  return null;
}

/**
 * The web session: httpOnly, SameSite=Lax, as long-lived as the session itself, with the
 * `signed_in` hint beside it (server/shared/signed-in-hint.ts).
 */
export function setSessionCookie(reply: FastifyReply, session: IssuedSession): void {
  const options = {
    path: '/',
    sameSite: 'lax' as const,
    secure: secureCookies(reply.request.ctx.env),
    maxAge: Math.max(0, Math.floor((session.expiresAt.getTime() - Date.now()) / 1000)),
  };
  reply.setCookie(ACCESS_TOKEN_COOKIE, session.token, { ...options, httpOnly: true });
  reply.setCookie(SIGNED_IN_HINT_COOKIE, '1', options);
}

export function clearSessionCookie(reply: FastifyReply): void {
  const options = { path: '/', sameSite: 'lax' as const, secure: secureCookies(reply.request.ctx.env) };
  reply.clearCookie(ACCESS_TOKEN_COOKIE, { ...options, httpOnly: true });
  reply.clearCookie(SIGNED_IN_HINT_COOKIE, options);
  reply.clearCookie(SHIP_TO_COOKIE, options);
}

/** After a login: the session cookie for the web, and the CSRF cookie its later writes echo. */
export function startWebSession(reply: FastifyReply, session: IssuedSession): void {
  setSessionCookie(reply, session);
  reply.issueCsrfCookie();
}

/**
 * Sliding expiry. A session in its last third is replaced: header clients get the new token
 * in `Refresh-Token` (with `Refresh-Sign` and `Refresh-Token-Expire`, an ISO 8601 time),
 * cookie clients a new cookie (the token never reaches page scripts). The old token keeps
 * working for a short grace period.
 */
async function refreshIfDue(
  request: FastifyRequest,
  reply: FastifyReply,
  lookup: SessionLookup,
  via: 'header' | 'cookie',
): Promise<void> {
  if (lookup.status !== 'active' || !lookup.refreshDue) return;
  const fresh = await rotateSession(request.ctx, lookup.user.sessionId, lookup.user.id);
  if (!fresh) return;
  request.ctx.user = { ...lookup.user, sessionId: fresh.sessionId };
  if (via === 'cookie') {
    setSessionCookie(reply, fresh);
    return;
  }
  reply.header(REFRESH_TOKEN_HEADER, fresh.token);
  reply.header(REFRESH_SIGN_HEADER, fresh.sign);
  reply.header(REFRESH_EXPIRE_HEADER, fresh.expiresAt.toISOString());
}

/** Resolves the session of a request; with `reply`, also renews it when it is near its end. */
export async function resolveSession(request: FastifyRequest, reply?: FastifyReply): Promise<SessionLookup> {
  if (presentsCredentials(request.headers, request.cookies)) markPersonal(request.ctx);
  const credentials = presentedCredentials(request);
  if (!credentials) return { status: 'missing' };
  const lookup = await lookupSession(request.ctx, credentials.token, credentials.sign);
  if (lookup.status === 'active') {
    request.ctx.user = lookup.user;
    if (reply) await refreshIfDue(request, reply, lookup, credentials.via);
  }
  return lookup;
}

/** preHandler for login-only endpoints: 301 with no session, 302 when it expired (SPEC section 8). */
export async function requireUser(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  // A login-only answer is personal even when it only says "log in": no shared cache keeps it.
  markPersonal(request.ctx);
  const lookup = await resolveSession(request, reply);
  if (lookup.status === 'missing') throw new LoginRequiredError();
  if (lookup.status === 'expired') {
    if (presentedCredentials(request)?.via === 'cookie') clearSessionCookie(reply);
    throw new SessionExpiredError();
  }
}

/**
 * Who a login-only call speaks for once requireUser has passed: the buyer's id and the locale
 * of the answer, the `{ userId, locale }` every "my orders / my addresses" domain call takes.
 */
export function signedInBuyer(request: FastifyRequest): { userId: number; locale: Locale } {
  const user = request.ctx.user;
  if (!user) throw new LoginRequiredError();
  return { userId: user.id, locale: request.ctx.locale };
}

/** preHandler for endpoints that answer everyone but know the user when there is one. */
export async function optionalUser(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  markPersonal(request.ctx);
  await resolveSession(request, reply);
}
