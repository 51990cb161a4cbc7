import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Server-to-server endpoints (payment webhooks) that authenticate by signature, not by cookie. */
    csrfExempt?: boolean;
  }
  interface FastifyReply {
    /** Gives the browser its readable CSRF token (pages and cookie-authenticated API calls). */
    issueCsrfCookie(): void;
  }
}
import { ForbiddenError } from '../shared/errors';
import { ACCESS_TOKEN_COOKIE } from './auth';

export const CSRF_COOKIE = 'csrf_token';
export const CSRF_HEADER = 'x-csrf-token';
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function isApiPath(url: string): boolean {
  return url.startsWith('/v1/') || url.startsWith('/v2/');
}

/**
 * Double-submit cookie: a write authenticated by the session cookie must echo the
 * readable `csrf_token` cookie in `x-csrf-token`. The cookie is handed out with pages and
 * with API answers to cookie-authenticated requests. Header-token clients are not exposed to
 * CSRF (a foreign site cannot set headers), so they skip the check. Page forms are posted
 * same-site only: a cross-site Origin on an unsafe storefront request is refused.
 */
export function registerCsrfProtection(app: FastifyInstance, options: { secureCookies: boolean }): void {
  app.decorateReply('issueCsrfCookie', function (this: FastifyReply) {
    if (this.request.cookies[CSRF_COOKIE]) return;
    const token = randomUUID().replaceAll('-', '');
    this.request.cookies[CSRF_COOKIE] = token;
    this.setCookie(CSRF_COOKIE, token, {
      path: '/',
      sameSite: 'lax',
      secure: options.secureCookies,
      httpOnly: false,
      maxAge: 60 * 60 * 24 * 365,
    });
  });
  app.addHook('onRequest', async (request, reply) => {
    if (isApiPath(request.url) && request.cookies[ACCESS_TOKEN_COOKIE]) reply.issueCsrfCookie();
    if (!UNSAFE_METHODS.has(request.method) || request.routeOptions.config.csrfExempt) return;
    if (isApiPath(request.url)) {
      const cookieAuthenticated = !request.headers.token && Boolean(request.cookies[ACCESS_TOKEN_COOKIE]);
      if (!cookieAuthenticated) return;
      const echoed = request.headers[CSRF_HEADER];
      if (typeof echoed !== 'string' || !sameToken(echoed, request.cookies[CSRF_COOKIE] ?? ''))
        throw new ForbiddenError('error.csrf');
      return;
    }
    if (!sameOrigin(request)) throw new ForbiddenError('error.csrf');
  });
}

function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (!origin) return request.headers['sec-fetch-site'] !== 'cross-site';
  // Privacy settings can blank the Origin of a same-origin post; the browser still says where it came from.
  if (origin === 'null') return request.headers['sec-fetch-site'] === 'same-origin';
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}
