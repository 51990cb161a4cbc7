import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents, staffRoles } from '../../server/db/schema';
import { PERMISSIONS } from '../../server/domains/staff/permissions';
import { createSignedInStaff, STAFF_TEST_PASSWORD, type TestStaff } from '../support/staff';
import { anonymousRequest, enrolTotp } from '../support/staff-sign-in';
import { useTestApp, type TestApp } from '../support/test-server';

/**
 * Staff and roles management (`staff:manage`; docs/console.md). Each test makes its own
 * members; the last-Owner test has a shop of its own, so it knows how many Owners there are.
 */
const server = useTestApp();

async function roleId(key: string, shop: TestApp = server): Promise<number> {
  const [role] = await shop.ctx.db.select({ id: staffRoles.id }).from(staffRoles).where(eq(staffRoles.key, key));
  if (!role) throw new Error(`no built-in role ${key}`);
  return role.id;
}

async function signedInOwner(shop: TestApp = server): Promise<TestStaff> {
  const owner = await createSignedInStaff(shop, { role: 'owner' });
  await enrolTotp(owner);
  return owner;
}

/** A member who may manage staff and holds every permission but the Owner role. */
const fullManager = (shop: TestApp = server) =>
  createSignedInStaff(shop, { permissions: PERMISSIONS, refundLimitMinor: 0 });

async function auditOf(action: string, entityId: number | string, shop: TestApp = server) {
  return shop.ctx.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, action), eq(auditEvents.entityId, String(entityId))));
}

describe('the last Owner', () => {
  const shop = useTestApp();

  it('cannot be disabled or lose the Owner role; once a second Owner exists, it can', async () => {
    const owner = await signedInOwner(shop);
    const manager = await fullManager(shop);
    const ownerRole = await roleId('owner', shop);

    const demote = await owner.request(`/v1/admin/staff/${owner.id}`, {
      method: 'PUT',
      body: { name: 'Still Owner', role_ids: [await roleId('manager', shop)] },
    });
    expect(demote.status).toBe(409);
    expect(demote.body.msg).toBe('The shop must keep at least one active Owner');
    const disableSelf = await owner.request(`/v1/admin/staff/${owner.id}/disable`, { method: 'POST' });
    expect(disableSelf.status).toBe(409);
    expect(disableSelf.body.msg).toBe('You cannot disable your own account');
    const disabledByOther = await manager.request(`/v1/admin/staff/${owner.id}/disable`, { method: 'POST' });
    expect(disabledByOther.status).toBe(409);
    expect(disabledByOther.body.msg).toBe('The shop must keep at least one active Owner');

    // Only an Owner gives the Owner role.
    const selfPromotion = await manager.request(`/v1/admin/staff/${manager.id}`, {
      method: 'PUT',
      body: { name: 'Manager', role_ids: [ownerRole] },
    });
    expect(selfPromotion.status).toBe(403);
    expect(selfPromotion.body.msg).toBe('Only an Owner can do this');
    const promoted = await owner.request(`/v1/admin/staff/${manager.id}`, {
      method: 'PUT',
      body: { name: 'Second Owner', role_ids: [ownerRole] },
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body.data.roles).toEqual([{ id: ownerRole, key: 'owner', name: { en: 'Owner', 'zh-cn': '店主' } }]);

    const demoted = await owner.request(`/v1/admin/staff/${owner.id}`, {
      method: 'PUT',
      body: { name: 'Former Owner', role_ids: [await roleId('manager', shop)] },
    });
    expect(demoted.status).toBe(200);
    const [updated] = await auditOf('staff.updated', owner.id, shop);
    expect(updated).toMatchObject({ actorType: 'staff', actorId: owner.id });
    expect(updated?.changes).toEqual({
      name: { before: expect.any(String), after: 'Former Owner' },
      role_ids: { before: [ownerRole], after: [await roleId('manager', shop)] },
    });
  });
});

describe('staff members', () => {
  it('lists members with roles, two-step status and last sign-in; one member with live sessions', async () => {
    const manager = await fullManager();
    const member = await createSignedInStaff(server, { role: 'support' });
    const list = (await manager.request('/v1/admin/staff')).body.data;
    expect(list.find((row: { id: number }) => row.id === member.id)).toMatchObject({
      email: member.email,
      roles: [{ key: 'support' }],
      second_factor_enabled: false,
      last_sign_in_at: null,
      disabled_at: null,
    });
    const detail = await manager.request(`/v1/admin/staff/${member.id}`);
    expect(detail.body.data.sessions).toHaveLength(1);
    expect(detail.body.data.sessions[0]).toMatchObject({ ip: '127.0.0.1', user_agent: 'vitest', current: false });
    expect((await manager.request('/v1/admin/staff/999999')).status).toBe(404);
  });

  it('disabling ends every session and stops sign-in; enabling lets the member back in', async () => {
    const manager = await fullManager();
    const member = await createSignedInStaff(server, { role: 'support' });
    const disabled = await manager.request(`/v1/admin/staff/${member.id}/disable`, { method: 'POST' });
    expect(disabled.status).toBe(200);
    expect(disabled.body.data.disabled_at).not.toBeNull();
    const after = await member.request('/v1/admin/session');
    expect(after.body.data.staff).toBeNull();
    const login = () =>
      anonymousRequest(server, '/v1/admin/login', {
        method: 'POST',
        body: { email: member.email, password: STAFF_TEST_PASSWORD },
      });
    expect((await login()).status).toBe(400);
    const [row] = await auditOf('staff.disabled', member.id);
    expect(row?.changes).toMatchObject({ disabled_at: { before: null }, sessions_ended: { after: 1 } });

    expect((await manager.request(`/v1/admin/staff/${member.id}/enable`, { method: 'POST' })).status).toBe(200);
    expect((await login()).status).toBe(200);
    expect(await auditOf('staff.enabled', member.id)).toHaveLength(1);
  });

  it("ends one of a member's sessions", async () => {
    const manager = await fullManager();
    const member = await createSignedInStaff(server, { role: 'support' });
    const [session] = (await manager.request(`/v1/admin/staff/${member.id}`)).body.data.sessions;
    const ended = await manager.request(`/v1/admin/staff/${member.id}/sessions/${session.id}`, { method: 'DELETE' });
    expect(ended.status).toBe(200);
    expect((await member.request('/v1/admin/session')).body.data.staff).toBeNull();
    expect(
      (await manager.request(`/v1/admin/staff/${member.id}/sessions/${session.id}`, { method: 'DELETE' })).status,
    ).toBe(404);
  });

  it('only members with staff:manage reach staff and roles', async () => {
    const support = await createSignedInStaff(server, { role: 'support' });
    for (const path of ['/v1/admin/staff', '/v1/admin/roles', '/v1/admin/permissions', '/v1/admin/staff/invitations']) {
      const answer = await support.request(path);
      expect({ path, status: answer.status }).toEqual({ path, status: 403 });
    }
  });
});

describe('roles', () => {
  const body = (overrides: Record<string, unknown> = {}) => ({
    name: { en: 'Night shift', 'zh-cn': '夜班' },
    permissions: ['orders:read', 'orders:fulfil'],
    refund_limit_minor: 0,
    ...overrides,
  });

  it('lists roles with member counts, and the permissions there are', async () => {
    const manager = await fullManager();
    await createSignedInStaff(server, { role: 'catalogue' });
    const roles = (await manager.request('/v1/admin/roles')).body.data;
    const owner = roles.find((role: { key: string }) => role.key === 'owner');
    expect(owner).toMatchObject({ built_in: true, requires_second_factor: true, refund_limit_minor: null });
    expect(owner.permissions).toHaveLength(16);
    const catalogue = roles.find((role: { key: string }) => role.key === 'catalogue');
    expect(catalogue).toMatchObject({ permissions: ['catalog:write'], refund_limit_minor: 0 });
    expect(catalogue.member_count).toBeGreaterThanOrEqual(1);
    const permissions = (await manager.request('/v1/admin/permissions')).body.data;
    expect(permissions).toContain('audit:read');
    expect(permissions).toHaveLength(16);
  });

  it('creates, edits and deletes a custom role, each recorded', async () => {
    const manager = await fullManager();
    const created = await manager.request('/v1/admin/roles', { method: 'POST', body: body() });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({
      key: null,
      built_in: false,
      member_count: 0,
      permissions: ['orders:read', 'orders:fulfil'],
    });
    const id = created.body.data.id;
    const edited = await manager.request(`/v1/admin/roles/${id}`, {
      method: 'PUT',
      body: body({ permissions: ['orders:read', 'orders:note'] }),
    });
    expect(edited.body.data.permissions).toEqual(['orders:read', 'orders:note']);
    expect((await manager.request(`/v1/admin/roles/${id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await manager.request(`/v1/admin/roles/${id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await auditOf('role.created', id))[0]?.changes).toEqual({
      name: { after: { en: 'Night shift', 'zh-cn': '夜班' } },
      permissions: { after: ['orders:read', 'orders:fulfil'] },
      refund_limit_minor: { after: 0 },
    });
    expect((await auditOf('role.updated', id))[0]?.changes).toEqual({
      permissions: { before: ['orders:read', 'orders:fulfil'], after: ['orders:read', 'orders:note'] },
    });
    expect(await auditOf('role.deleted', id)).toHaveLength(1);
  });

  it('refund limits are the Owner’s to set', async () => {
    const manager = await fullManager();
    const refused = await manager.request('/v1/admin/roles', {
      method: 'POST',
      body: body({ refund_limit_minor: 10_000 }),
    });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('Only an Owner can do this');
    const support = await roleId('support');
    const supportBody = {
      name: { en: 'Support', 'zh-cn': '客服' },
      permissions: [
        'orders:read',
        'orders:note',
        'orders:cancel',
        'payments:refund',
        'aftersales:read',
        'aftersales:manage',
        'customers:read',
        'customers:write',
      ],
    };
    const byManager = await manager.request(`/v1/admin/roles/${support}`, {
      method: 'PUT',
      body: { ...supportBody, refund_limit_minor: 80_000 },
    });
    expect(byManager.status).toBe(403);
    const owner = await signedInOwner();
    const byOwner = await owner.request(`/v1/admin/roles/${support}`, {
      method: 'PUT',
      body: { ...supportBody, refund_limit_minor: 80_000 },
    });
    expect(byOwner.status).toBe(200);
    expect(byOwner.body.data.refund_limit_minor).toBe(80_000);
    expect((await auditOf('role.updated', support))[0]?.changes).toEqual({
      refund_limit_minor: { before: 50_000, after: 80_000 },
    });
  });

  it('built-in roles keep their names and permissions, cannot be deleted, and a held role stays', async () => {
    const owner = await signedInOwner();
    const fulfilment = await roleId('fulfilment');
    const changed = await owner.request(`/v1/admin/roles/${fulfilment}`, {
      method: 'PUT',
      body: { name: { en: 'Fulfilment', 'zh-cn': '发货' }, permissions: ['orders:read'], refund_limit_minor: 0 },
    });
    expect(changed.status).toBe(409);
    const ownerRole = await roleId('owner');
    const ownerLimit = await owner.request(`/v1/admin/roles/${ownerRole}`, {
      method: 'PUT',
      body: { name: { en: 'Owner', 'zh-cn': '店主' }, permissions: PERMISSIONS, refund_limit_minor: 100 },
    });
    expect(ownerLimit.status).toBe(409);
    expect((await owner.request(`/v1/admin/roles/${fulfilment}`, { method: 'DELETE' })).status).toBe(409);

    const custom = (await owner.request('/v1/admin/roles', { method: 'POST', body: body() })).body.data;
    const holder = await createSignedInStaff(server, { role: 'support' });
    await owner.request(`/v1/admin/staff/${holder.id}`, {
      method: 'PUT',
      body: { name: 'Holder', role_ids: [custom.id] },
    });
    const held = await owner.request(`/v1/admin/roles/${custom.id}`, { method: 'DELETE' });
    expect(held.status).toBe(409);
    expect(held.body.msg).toBe('This role still has 1 member(s). Move them to another role first');
  });

  it('nobody builds a role with permissions they lack', async () => {
    const narrow = await createSignedInStaff(server, { permissions: ['staff:manage', 'orders:read'] });
    const beyond = await narrow.request('/v1/admin/roles', {
      method: 'POST',
      body: body({ permissions: ['orders:read', 'payments:refund'] }),
    });
    expect(beyond.status).toBe(403);
    expect(beyond.body.msg).toBe('You cannot give a role permissions you do not have yourself');
  });
});
