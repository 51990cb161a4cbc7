import type { Server } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ActingContext } from '../context';
import { markPersonal } from '../context';
import { lookupStaffSession, type IssuedStaffSession } from '../domains/staff/staff-sessions.service';
import { isPermission, type Permission } from '../domains/staff/permissions';
import { ForbiddenError, LoginRequiredError, SessionExpiredError } from '../shared/errors';
import { secureCookies } from '../shared/site-origin';
import { CSRF_COOKIE, CSRF_HEADER, sameToken } from './csrf';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The permission an admin endpoint needs (server/domains/staff/permissions.ts). Every
     * route under `/v1/admin` names one, or says it needs none with `staffAccess`.
     */
    permission?: Permission;
    /** `public`: sign-in, setup and invitation steps; `signed-in`: any member's own session and profile. */
    staffAccess?: 'public' | 'signed-in';
  }
}

export interface AdminRoute {
  method: string;
  url: string;
  permission: Permission | null;
  staffAccess: 'public' | 'signed-in' | null;
}

const adminRouteTables = new WeakMap<Server, AdminRoute[]>();

/** Every admin endpoint with what it needs; the permission test walks this table. */
export function adminRoutesOf(app: FastifyInstance): readonly AdminRoute[] {
  return adminRouteTables.get(app.server) ?? [];
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** `__Host-` pins the cookie to our origin over https; plain http (development) cannot use the prefix. */
export function staffSessionCookieName(request: FastifyRequest): string {
  return secureCookies(request.ctx.env) ? '__Host-staff_session' : 'staff_session';
}

export function setStaffSessionCookie(reply: FastifyReply, session: IssuedStaffSession): void {
  reply.setCookie(staffSessionCookieName(reply.request), session.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: secureCookies(reply.request.ctx.env),
  });
}

export function clearStaffSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(staffSessionCookieName(reply.request), {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: secureCookies(reply.request.ctx.env),
  });
}

/** Who is acting on an admin request, for the audit log. */
export function actingContext(request: FastifyRequest): ActingContext {
  const staff = request.ctx.staff;
  if (!staff) throw new LoginRequiredError();
  return {
    ...request.ctx,
    actor: {
      type: 'staff',
      id: staff.id,
      label: staff.email,
      ip: request.ip,
      userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
      requestId: request.id,
    },
  };
}

/** The signed-in member of an admin request (after the gate below). */
export function signedInStaff(request: FastifyRequest) {
  const staff = request.ctx.staff;
  if (!staff) throw new LoginRequiredError();
  return staff;
}

/**
 * The gate of the admin API (docs/console.md). Every answer is personal (never cached). Every
 * write echoes the CSRF cookie, signed in or not (the staff cookie is also `SameSite=Strict`).
 * The staff session comes only from the staff cookie: a buyer's session or token is never
 * read here, so it cannot reach an admin endpoint, and the staff cookie is never read by
 * buyer endpoints. Permissions are checked before the body is even validated.
 */
export function registerAdminGate(api: FastifyInstance): void {
  const table: AdminRoute[] = [];
  adminRouteTables.set(api.server, table);

  api.addHook('onRoute', (route) => {
    const permission = route.config?.permission ?? null;
    const staffAccess = route.config?.staffAccess ?? null;
    if ((permission === null) === (staffAccess === null))
      throw new Error(
        `${String(route.method)} ${route.url}: an admin route names exactly one of permission or staffAccess`,
      );
    if (permission !== null && !isPermission(permission))
      throw new Error(`${route.url}: unknown permission ${permission}`);
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      table.push({ method, url: route.url, permission, staffAccess });
    }
  });

  api.addHook('onRequest', async (request, reply) => {
    markPersonal(request.ctx);
    if (UNSAFE_METHODS.has(request.method)) {
      const echoed = request.headers[CSRF_HEADER];
      if (typeof echoed !== 'string' || !sameToken(echoed, request.cookies[CSRF_COOKIE] ?? ''))
        throw new ForbiddenError('error.csrf');
    } else {
      reply.issueCsrfCookie();
    }

    const { permission, staffAccess } = request.routeOptions.config;
    const token = request.cookies[staffSessionCookieName(request)];
    const lookup = token ? await lookupStaffSession(request.ctx, token) : ({ status: 'missing' } as const);
    if (lookup.status === 'active') request.ctx.staff = lookup.staff;
    if (staffAccess === 'public') return;
    if (lookup.status === 'missing') throw new LoginRequiredError();
    if (lookup.status === 'expired') {
      clearStaffSessionCookie(reply);
      throw new SessionExpiredError();
    }
    if (!permission) return;
    if (lookup.staff.mustEnrolSecondFactor) throw new ForbiddenError('admin.error.secondFactorRequired');
    if (!lookup.staff.permissions.has(permission)) throw new ForbiddenError('admin.error.permission');
  });
}
