import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents, outbox, staffRoles, staffTokens } from '../../server/db/schema';
import { decodedMail, useFakeSmtp } from '../support/mail';
import { createSignedInStaff, uniqueStaffEmail } from '../support/staff';
import { anonymousRequest, clientOf, enrolTotp } from '../support/staff-sign-in';
import { useTestApp } from '../support/test-server';

/** Staff invitations by emailed link (docs/console.md): invite, read, accept once, revoke. */
const smtp = useFakeSmtp();
const server = useTestApp(() => ({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://shop.example' }));

async function roleId(key: string): Promise<number> {
  const [role] = await server.ctx.db.select({ id: staffRoles.id }).from(staffRoles).where(eq(staffRoles.key, key));
  if (!role) throw new Error(`no built-in role ${key}`);
  return role.id;
}

/** The link token in the newest invitation mailed to `email`. */
async function invitationToken(email: string): Promise<{ token: string; text: string }> {
  const mail = await smtp.waitFor((received) => received.to === email, 10_000);
  const text = decodedMail(mail.raw);
  const token = /https:\/\/shop\.example\/admin\/invitation#([A-Za-z0-9_-]{43})/.exec(text)?.[1];
  if (!token) throw new Error(`no invitation link in:\n${text}`);
  return { token, text };
}

const manager = () =>
  createSignedInStaff(server, {
    permissions: [
      'staff:manage',
      'orders:read',
      'orders:fulfil',
      'orders:note',
      'aftersales:read',
      'aftersales:manage',
    ],
  });

describe('invitations', () => {
  it('emails a link in the chosen language; accepting it signs the new member in with the invited roles', async () => {
    const inviter = await manager();
    const email = uniqueStaffEmail('invitee');
    const invited = await inviter.request('/v1/admin/staff/invitations', {
      method: 'POST',
      body: { email, role_ids: [await roleId('fulfilment')], locale: 'en' },
    });
    expect(invited.status).toBe(200);
    expect(invited.body.data).toMatchObject({
      email,
      locale: 'en',
      roles: [{ key: 'fulfilment', name: { en: 'Fulfilment', 'zh-cn': '发货' } }],
      invited_by: { id: inviter.id },
    });
    const { token, text } = await invitationToken(email);
    expect(text).toContain('You are invited to the Lumen & Loom console');
    expect(text).toContain('as Fulfilment');

    // The outbox keeps the mail's job for a month: the token waits there sealed.
    const jobs = await server.ctx.db.select().from(outbox).where(eq(outbox.topic, 'staff-invitation-mail'));
    expect(jobs.length).toBeGreaterThan(0);
    expect(JSON.stringify(jobs)).not.toContain(token);

    const preview = await anonymousRequest(server, `/v1/admin/invitations/${token}`);
    expect(preview.body.data).toMatchObject({ email, roles: [{ key: 'fulfilment' }], locale: 'en' });
    const accepted = await anonymousRequest(server, '/v1/admin/invitations/accept', {
      method: 'POST',
      body: { token, name: 'Finn Fulfil', password: 'Fulfil-password-26' },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({
      email,
      name: 'Finn Fulfil',
      permissions: ['orders:read', 'orders:fulfil', 'orders:note', 'aftersales:read', 'aftersales:manage'],
    });
    const asMember = clientOf(server, accepted);
    expect((await asMember('/v1/admin/session')).body.data.staff.email).toBe(email);

    const again = await anonymousRequest(server, '/v1/admin/invitations/accept', {
      method: 'POST',
      body: { token, name: 'Someone Else', password: 'Another-password-26' },
    });
    expect(again.status).toBe(404);
    expect((await anonymousRequest(server, `/v1/admin/invitations/${token}`)).status).toBe(404);

    const events = await server.ctx.db.select().from(auditEvents).where(eq(auditEvents.entityType, 'staff_invitation'));
    const invitedRow = events.find((row) => row.action === 'staff.invited');
    expect(invitedRow).toMatchObject({
      actorType: 'staff',
      actorId: inviter.id,
      entityId: String(invited.body.data.id),
    });
    expect(invitedRow?.changes).toMatchObject({
      email: { after: email },
      role_ids: { after: [await roleId('fulfilment')] },
    });
    const [joined] = await server.ctx.db.select().from(auditEvents).where(eq(auditEvents.action, 'staff.joined'));
    expect(joined).toMatchObject({ actorType: 'staff', actorLabel: email });
    expect(JSON.stringify([...events, joined])).not.toContain(token);
    expect(JSON.stringify(joined)).not.toContain('Fulfil-password-26');
  });

  it('writes the mail in Chinese for a zh-cn invitation', async () => {
    const inviter = await manager();
    const email = uniqueStaffEmail('zh');
    await inviter.request('/v1/admin/staff/invitations', {
      method: 'POST',
      body: { email, role_ids: [await roleId('fulfilment')], locale: 'zh-cn' },
    });
    const { text } = await invitationToken(email);
    expect(text).toContain('邀请您加入 光织良品 管理后台');
    expect(text).toContain('「发货」');
  });

  it('lists pending invitations and revokes one; a revoked link is dead', async () => {
    const inviter = await manager();
    const email = uniqueStaffEmail('revoked');
    const invited = await inviter.request('/v1/admin/staff/invitations', {
      method: 'POST',
      body: { email, role_ids: [await roleId('fulfilment')], locale: 'en' },
    });
    const { token } = await invitationToken(email);
    const pending = (await inviter.request('/v1/admin/staff/invitations')).body.data;
    expect(pending.map((row: { email: string }) => row.email)).toContain(email);
    const revoked = await inviter.request(`/v1/admin/staff/invitations/${invited.body.data.id}`, { method: 'DELETE' });
    expect(revoked.status).toBe(200);
    const after = (await inviter.request('/v1/admin/staff/invitations')).body.data;
    expect(after.map((row: { email: string }) => row.email)).not.toContain(email);
    expect((await anonymousRequest(server, `/v1/admin/invitations/${token}`)).status).toBe(404);
    const [row] = await server.ctx.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'staff.invitation_revoked'));
    expect(row?.changes).toEqual({ status: { before: 'pending', after: 'revoked' } });
  });

  it('stops working after 72 hours', async () => {
    const inviter = await manager();
    const email = uniqueStaffEmail('late');
    await inviter.request('/v1/admin/staff/invitations', {
      method: 'POST',
      body: { email, role_ids: [await roleId('fulfilment')], locale: 'en' },
    });
    const { token } = await invitationToken(email);
    await server.ctx.db
      .update(staffTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(staffTokens.email, email));
    expect((await anonymousRequest(server, `/v1/admin/invitations/${token}`)).status).toBe(404);
    const accepted = await anonymousRequest(server, '/v1/admin/invitations/accept', {
      method: 'POST',
      body: { token, name: 'Too Late', password: 'Too-late-password-26' },
    });
    expect(accepted.status).toBe(404);
    expect(accepted.body.msg).toBe('This link has expired or was already used. Ask for a new one');
  });

  it('refuses an email that already has an account, and roles beyond what the inviter holds', async () => {
    const inviter = await manager();
    const taken = await inviter.request('/v1/admin/staff/invitations', {
      method: 'POST',
      body: { email: inviter.email, role_ids: [await roleId('fulfilment')], locale: 'en' },
    });
    expect(taken.status).toBe(409);
    const ownerRole = await inviter.request('/v1/admin/staff/invitations', {
      method: 'POST',
      body: { email: uniqueStaffEmail('x'), role_ids: [await roleId('owner')], locale: 'en' },
    });
    expect(ownerRole.status).toBe(403);
    expect(ownerRole.body.msg).toBe('Only an Owner can do this');
    const beyond = await inviter.request('/v1/admin/staff/invitations', {
      method: 'POST',
      body: { email: uniqueStaffEmail('x'), role_ids: [await roleId('support')], locale: 'en' },
    });
    expect(beyond.status).toBe(403);
    expect(beyond.body.msg).toBe('You cannot give a role permissions you do not have yourself');
  });

  it('an Owner may invite another Owner', async () => {
    const owner = await createSignedInStaff(server, { role: 'owner' });
    await enrolTotp(owner);
    const email = uniqueStaffEmail('co-owner');
    const invited = await owner.request('/v1/admin/staff/invitations', {
      method: 'POST',
      body: { email, role_ids: [await roleId('owner')], locale: 'en' },
    });
    expect(invited.status).toBe(200);
    const { token } = await invitationToken(email);
    const accepted = await anonymousRequest(server, '/v1/admin/invitations/accept', {
      method: 'POST',
      body: { token, name: 'Co Owner', password: 'Co-owner-password-26' },
    });
    expect(accepted.body.data.second_factor).toEqual({ enabled: false, required: true });
  });
});
