import { asc, eq } from 'drizzle-orm';
import { isLocale } from '../../../i18n';
import { staffMemberRoles, staffMembers } from '../../db/schema';
import type { ActingContext, AppContext, StaffPrincipal } from '../../context';
import { recordAudit } from '../audit/audit.service';
import { NotFoundError } from '../../shared/errors';
import { activeStaffSessions, revokeAllStaffSessions, revokeStaffSession } from './staff-sessions.service';
import {
  assertMayGrant,
  memberById,
  otherActiveOwners,
  OWNER_ROLE_KEY,
  roleRefOf,
  rolesByIds,
  rolesOfMembers,
  type StaffMemberRow,
  type StaffRoleRow,
} from './staff-directory';
import { StaffConflictError } from './staff-errors';
import type { StaffMemberView } from './staff.schemas';

/**
 * Staff management (`staff:manage`): the list, one member with their live sessions, editing
 * name and roles, disabling and enabling, ending a session. The last active Owner cannot be
 * disabled or lose the Owner role, and only an Owner gives or takes the Owner role.
 */

const memberNotFound = () => new NotFoundError('adminStaff.member.notFound');

function viewOf(member: StaffMemberRow, roles: readonly StaffRoleRow[]): StaffMemberView {
  return {
    id: member.id,
    email: member.email,
    name: member.name,
    locale: isLocale(member.locale) ? member.locale : 'zh-cn',
    roles: roles.map(roleRefOf),
    second_factor_enabled: member.totpEnabledAt !== null,
    last_sign_in_at: member.lastSignInAt?.toISOString() ?? null,
    disabled_at: member.disabledAt?.toISOString() ?? null,
    created_at: member.createdAt.toISOString(),
  };
}

export async function listStaff(ctx: AppContext): Promise<StaffMemberView[]> {
  const members = await ctx.db.select().from(staffMembers).orderBy(asc(staffMembers.id));
  const roles = await rolesOfMembers(
    ctx,
    members.map((member) => member.id),
  );
  return members.map((member) => viewOf(member, roles.get(member.id) ?? []));
}

export function sessionViewsOf(
  sessions: Awaited<ReturnType<typeof activeStaffSessions>>,
  currentSessionId: number | null,
) {
  return sessions.map((session) => ({
    id: session.id,
    ip: session.ip,
    user_agent: session.userAgent,
    created_at: session.createdAt.toISOString(),
    last_seen_at: session.lastSeenAt.toISOString(),
    expires_at: session.expiresAt.toISOString(),
    current: session.id === currentSessionId,
  }));
}

export async function staffDetail(ctx: AppContext, staffId: number, currentSessionId: number | null) {
  const member = await memberById(ctx, staffId);
  if (!member) throw memberNotFound();
  const roles = (await rolesOfMembers(ctx, [staffId])).get(staffId) ?? [];
  return {
    ...viewOf(member, roles),
    sessions: sessionViewsOf(await activeStaffSessions(ctx, [staffId]), currentSessionId),
  };
}

/** Renames a member and replaces their roles. */
export async function updateStaff(
  ctx: ActingContext,
  actor: StaffPrincipal,
  staffId: number,
  input: { name: string; role_ids: number[] },
): Promise<StaffMemberView> {
  const wanted = await rolesByIds(ctx, input.role_ids);
  return ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    const [member] = await tx.select().from(staffMembers).where(eq(staffMembers.id, staffId)).for('update');
    if (!member) throw memberNotFound();
    const current = (await rolesOfMembers(t, [staffId])).get(staffId) ?? [];
    const added = wanted.filter((role) => !current.some((held) => held.id === role.id));
    const removed = current.filter((role) => !wanted.some((kept) => kept.id === role.id));
    await assertMayGrant(t, actor, [...added, ...removed]);
    const losesOwner = removed.some((role) => role.key === OWNER_ROLE_KEY);
    if (losesOwner && !member.disabledAt && (await otherActiveOwners(t, staffId)) === 0)
      throw new StaffConflictError('adminStaff.lastOwner');

    const [updated] = await tx
      .update(staffMembers)
      .set({ name: input.name, updatedAt: new Date() })
      .where(eq(staffMembers.id, staffId))
      .returning();
    if (added.length > 0 || removed.length > 0) {
      await tx.delete(staffMemberRoles).where(eq(staffMemberRoles.staffId, staffId));
      await tx.insert(staffMemberRoles).values(wanted.map((role) => ({ staffId, roleId: role.id })));
    }
    await recordAudit(t, {
      action: 'staff.updated',
      entityType: 'staff',
      entityId: staffId,
      before: { name: member.name, role_ids: current.map((role) => role.id) },
      after: { name: input.name, role_ids: wanted.map((role) => role.id) },
    });
    return viewOf(updated ?? member, wanted);
  });
}

/** Disables a member and ends all their sessions; never oneself, never the last active Owner. */
export async function disableStaff(ctx: ActingContext, actor: StaffPrincipal, staffId: number) {
  if (staffId === actor.id) throw new StaffConflictError('adminStaff.self');
  return ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    const [member] = await tx.select().from(staffMembers).where(eq(staffMembers.id, staffId)).for('update');
    if (!member) throw memberNotFound();
    const roles = (await rolesOfMembers(t, [staffId])).get(staffId) ?? [];
    if (member.disabledAt) return viewOf(member, roles);
    if (roles.some((role) => role.key === OWNER_ROLE_KEY) && (await otherActiveOwners(t, staffId)) === 0)
      throw new StaffConflictError('adminStaff.lastOwner');
    const disabledAt = new Date();
    await tx.update(staffMembers).set({ disabledAt, updatedAt: disabledAt }).where(eq(staffMembers.id, staffId));
    const sessionsEnded = await revokeAllStaffSessions(t, staffId);
    await recordAudit(t, {
      action: 'staff.disabled',
      entityType: 'staff',
      entityId: staffId,
      before: { disabled_at: null },
      after: { disabled_at: disabledAt, sessions_ended: sessionsEnded },
    });
    return viewOf({ ...member, disabledAt }, roles);
  });
}

export async function enableStaff(ctx: ActingContext, staffId: number) {
  return ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    const [member] = await tx.select().from(staffMembers).where(eq(staffMembers.id, staffId)).for('update');
    if (!member) throw memberNotFound();
    const roles = (await rolesOfMembers(t, [staffId])).get(staffId) ?? [];
    if (!member.disabledAt) return viewOf(member, roles);
    await tx.update(staffMembers).set({ disabledAt: null, updatedAt: new Date() }).where(eq(staffMembers.id, staffId));
    await recordAudit(t, {
      action: 'staff.enabled',
      entityType: 'staff',
      entityId: staffId,
      before: { disabled_at: member.disabledAt },
      after: { disabled_at: null },
    });
    return viewOf({ ...member, disabledAt: null }, roles);
  });
}

/** Ends one live session of a member (their own sessions list, or staff management). */
export async function endStaffSession(ctx: ActingContext, staffId: number, sessionId: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    if (!(await revokeStaffSession(t, staffId, sessionId))) throw new NotFoundError();
    await recordAudit(t, {
      action: 'staff.session_revoked',
      entityType: 'staff',
      entityId: staffId,
      after: { session_id: sessionId },
    });
  });
}
