import Fastify from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { auditEvents } from '../../server/db/schema';
import { describe, expect, it } from 'vitest';
import { adminRoutesOf, registerAdminGate } from '../../server/http/admin-api';
import { PERMISSIONS } from '../../server/domains/staff/permissions';
import { createSession } from '../../server/domains/customers/sessions.service';
import { makeBuyer } from '../support/buyers';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { useTestApp } from '../support/test-server';

/** The admin API's gate (docs/console.md): staff sessions only, CSRF on writes, a permission on every route. */
const server = useTestApp();

/** A path for a route pattern: every parameter filled with 1 (the gate answers before any lookup). */
function concretePath(url: string): string {
  return url.replace(/:[A-Za-z]+/g, '1').replace(/\*$/, 'x');
}

describe('the admin gate', () => {
  it('tells a visitor nobody is signed in and that the first-start setup is open', async () => {
    const answer = await server.request('/v1/admin/session');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ staff: null, setup_required: true });
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
  });

  it("names the signed-in member with their role's permissions", async () => {
    const fulfilment = await createSignedInStaff(server, { role: 'fulfilment' });
    const answer = await fulfilment.request('/v1/admin/session');
    expect(answer.body.data.staff).toMatchObject({
      email: fulfilment.email,
      permissions: ['orders:read', 'orders:fulfil', 'orders:note', 'aftersales:read', 'aftersales:manage'],
      refund_limit_minor: 0,
      second_factor: { enabled: false, required: false },
    });
    expect(answer.body.data.setup_required).toBe(false);
  });

  it("never reads a buyer's session: a buyer's cookie or token is nobody to the admin API", async () => {
    const buyer = await makeBuyer(server);
    const viaHeaders = await buyer.call('/v1/admin/logout', {
      method: 'POST',
      headers: { 'x-csrf-token': 't' },
      cookies: { csrf_token: 't' },
    });
    expect(viaHeaders.status).toBe(401);
    expect(viaHeaders.body.code).toBe(301);
    const session = await createSession(server.ctx, buyer.id);
    const viaCookie = await server.request('/v1/admin/session', { cookies: { access_token: session.token } });
    expect(viaCookie.body.data.staff).toBeNull();
  });

  it('a staff session is nobody to the buyer API', async () => {
    const owner = await createSignedInStaff(server, { role: 'owner' });
    const answer = await owner.request('/v1/user/info');
    expect(answer.body.code).toBe(301);
  });

  it('refuses a write that does not echo the CSRF cookie, signed in or not', async () => {
    const owner = await createSignedInStaff(server, { role: 'owner' });
    const bare = await server.request('/v1/admin/logout', { method: 'POST', cookies: owner.cookies });
    expect(bare.status).toBe(403);
    const wrong = await server.request('/v1/admin/logout', {
      method: 'POST',
      cookies: owner.cookies,
      headers: { 'x-csrf-token': 'not-the-cookie' },
    });
    expect(wrong.status).toBe(403);
    const still = await owner.request('/v1/admin/session');
    expect(still.body.data.staff.email).toBe(owner.email);
  });

  it('signing out ends the session: the cookie is nobody afterwards', async () => {
    const member = await createSignedInStaff(server, { role: 'support' });
    const out = await member.request('/v1/admin/logout', { method: 'POST' });
    expect(out.status).toBe(200);
    const after = await member.request('/v1/admin/logout', { method: 'POST' });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe(302);
  });

  it('refuses to register an admin route that names no permission', async () => {
    const app = Fastify();
    await expect(
      app.register(async (admin) => {
        registerAdminGate(admin);
        admin.get('/orders', async () => 'unguarded');
      }),
    ).rejects.toThrow(/names exactly one of permission or staffAccess/);
  });
});

describe('every admin endpoint checks its permission', () => {
  const routes = () => adminRoutesOf(server.app).filter((route) => route.permission !== null);

  it('the table lists the console routes', () => {
    const all = adminRoutesOf(server.app).map((route) => `${route.method} ${route.url}`);
    expect(all).toContain('GET /v1/admin/session');
    expect(all).toContain('POST /v1/admin/logout');
  });

  it('a member with every permission but the one a route needs gets 403, before the body is read', async () => {
    // One member per permission, not per route: every member costs a password hash.
    const members = new Map<string, TestStaff>();
    for (const route of routes()) {
      const others = PERMISSIONS.filter((permission) => permission !== route.permission);
      const member =
        members.get(String(route.permission)) ?? (await createSignedInStaff(server, { permissions: others }));
      members.set(String(route.permission), member);
      const answer = await member.request(concretePath(route.url), {
        method: route.method,
        body: route.method === 'GET' ? undefined : {},
      });
      expect({ route: `${route.method} ${route.url}`, status: answer.status }).toEqual({
        route: `${route.method} ${route.url}`,
        status: 403,
      });
      expect(answer.body.msg).toBe('Your role does not allow this. Ask an Owner for access');
    }
  });

  it('without a session every guarded route answers 401 with code 301', async () => {
    for (const route of adminRoutesOf(server.app).filter((entry) => entry.staffAccess !== 'public')) {
      const answer = await server.request(concretePath(route.url), {
        method: route.method,
        cookies: { csrf_token: 'c' },
        headers: { 'x-csrf-token': 'c', lang: 'en' },
        body: route.method === 'GET' ? undefined : {},
      });
      expect({ route: `${route.method} ${route.url}`, code: answer.body.code }).toEqual({
        route: `${route.method} ${route.url}`,
        code: 301,
      });
    }
  });
});

describe('the audit log', () => {
  it('is append-only: UPDATE, DELETE and TRUNCATE are refused by the database', async () => {
    await server.ctx.db.execute(
      sql`insert into audit_events (actor_type, actor_label, action, entity_type, entity_id, changes) values ('cli', 'cli', 'test.appended', 'test', '1', '{}'::jsonb)`,
    );
    await expect(server.ctx.db.execute(sql`update audit_events set action = 'test.rewritten'`)).rejects.toThrow();
    await expect(server.ctx.db.execute(sql`delete from audit_events`)).rejects.toThrow();
    await expect(server.ctx.db.execute(sql`truncate audit_events`)).rejects.toThrow();
    const rows = await server.ctx.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.entityType, 'test'));
    expect(rows).toEqual([{ action: 'test.appended' }]);
  });
});
