import type { FastifyReply, FastifyRequest } from 'fastify';
import { lookupSession, type SessionLookup } from '../domains/customers/sessions.service';
import { LoginRequiredError, SessionExpiredError } from '../shared/errors';

export const ACCESS_TOKEN_COOKIE = 'access_token';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
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

export async function resolveSession(request: FastifyRequest): Promise<SessionLookup> {
  const credentials = presentedCredentials(request);
  if (!credentials) return { status: 'missing' };
  const lookup = await lookupSession(request.ctx, credentials.token, credentials.sign);
  if (lookup.status === 'active') request.ctx.user = lookup.user;
  return lookup;
}

/** preHandler for login-only endpoints: 301 with no session, 302 when it expired (SPEC section 8). */
export async function requireUser(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const lookup = await resolveSession(request);
  if (lookup.status === 'missing') throw new LoginRequiredError();
  if (lookup.status === 'expired') throw new SessionExpiredError();
}

/** preHandler for endpoints that answer everyone but know the user when there is one. */
export async function optionalUser(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  await resolveSession(request);
}
