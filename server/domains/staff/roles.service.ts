import { asc, count, eq } from 'drizzle-orm';
import { staffMemberRoles, staffRoles } from '../../db/schema';
import type { ActingContext, AppContext, StaffPrincipal } from '../../context';
import { onlyRow } from '../../db/rows';
import { recordAudit } from '../audit/audit.service';
import { NotFoundError } from '../../shared/errors';
import { BUILT_IN_ROLES, PERMISSIONS, type BuiltInRoleKey } from './permissions';
import { isOwner, OWNER_ROLE_KEY, type StaffRoleRow } from './staff-directory';
import { GrantBeyondOwnError, OwnerOnlyError, RoleInUseError, StaffConflictError } from './staff-errors';
import type { RoleBody, RoleView } from './staff.schemas';

/**
 * Roles (`staff:manage`). Built-in roles keep the name and permissions the code gives them
 * (re-applied at every start); the Owner role cannot be changed at all. Custom roles are
 * free, within two rules: a role cannot carry a permission its editor lacks, and only an
 * Owner sets or changes a refund limit (a new role's limit may be 0 by anyone). A role is
 * deleted only when nobody holds it.
 */

const roleNotFound = () => new NotFoundError('adminStaff.role.notFound');

function viewOf(role: StaffRoleRow, memberCount: number): RoleView {
  const builtIn = role.key !== null ? BUILT_IN_ROLES[role.key as BuiltInRoleKey] : undefined;
  return {
    id: role.id,
    key: role.key,
    name: role.name,
    permissions: PERMISSIONS.filter((permission) => role.permissions.includes(permission)),
    refund_limit_minor: role.refundLimitMinor,
    built_in: builtIn !== undefined,
    requires_second_factor: builtIn?.requiresSecondFactor ?? false,
    member_count: memberCount,
  };
}

async function memberCountOf(ctx: AppContext, roleId: number): Promise<number> {
  const [row] = await ctx.db
    .select({ members: count() })
    .from(staffMemberRoles)
    .where(eq(staffMemberRoles.roleId, roleId));
  return row?.members ?? 0;
}

export async function listRoles(ctx: AppContext): Promise<RoleView[]> {
  const roles = await ctx.db.select().from(staffRoles).orderBy(asc(staffRoles.id));
  const counts = await ctx.db
    .select({ roleId: staffMemberRoles.roleId, members: count() })
    .from(staffMemberRoles)
    .groupBy(staffMemberRoles.roleId);
  return roles.map((role) => viewOf(role, counts.find((row) => row.roleId === role.id)?.members ?? 0));
}

function assertHoldsAll(actor: StaffPrincipal, permissions: readonly string[]): void {
  if (permissions.some((permission) => !actor.permissions.has(permission))) throw new GrantBeyondOwnError();
}

export async function createRole(ctx: ActingContext, actor: StaffPrincipal, input: RoleBody): Promise<RoleView> {
  assertHoldsAll(actor, input.permissions);
  if (input.refund_limit_minor !== 0 && !(await isOwner(ctx, actor.id))) throw new OwnerOnlyError();
  return ctx.db.transaction(async (tx) => {
    const role = onlyRow(
      await tx
        .insert(staffRoles)
        .values({
          name: input.name,
          permissions: [...new Set(input.permissions)],
          refundLimitMinor: input.refund_limit_minor,
        })
        .returning(),
    );
    await recordAudit(
      { ...ctx, db: tx },
      {
        action: 'role.created',
        entityType: 'role',
        entityId: role.id,
        after: { name: role.name, permissions: role.permissions, refund_limit_minor: role.refundLimitMinor },
      },
    );
    return viewOf(role, 0);
  });
}

export async function updateRole(
  ctx: ActingContext,
  actor: StaffPrincipal,
  roleId: number,
  input: RoleBody,
): Promise<RoleView> {
  return ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    const [role] = await tx.select().from(staffRoles).where(eq(staffRoles.id, roleId)).for('update');
    if (!role) throw roleNotFound();
    const permissions = PERMISSIONS.filter((permission) => input.permissions.includes(permission));
    // Both in the catalogue's order, so the audit diff shows only real changes.
    const current = PERMISSIONS.filter((permission) => role.permissions.includes(permission));
    const samePermissions =
      permissions.length === current.length && permissions.every((permission) => current.includes(permission));
    const sameName = role.name.en === input.name.en && role.name['zh-cn'] === input.name['zh-cn'];
    const limitChanges = role.refundLimitMinor !== input.refund_limit_minor;
    if (role.key !== null && (!samePermissions || !sameName || (role.key === OWNER_ROLE_KEY && limitChanges)))
      throw new StaffConflictError('adminStaff.role.builtIn');
    assertHoldsAll(
      actor,
      permissions.filter((permission) => !current.includes(permission)),
    );
    if (limitChanges && !(await isOwner(t, actor.id))) throw new OwnerOnlyError();
    const updated = onlyRow(
      await tx
        .update(staffRoles)
        .set({ name: input.name, permissions, refundLimitMinor: input.refund_limit_minor, updatedAt: new Date() })
        .where(eq(staffRoles.id, roleId))
        .returning(),
    );
    await recordAudit(t, {
      action: 'role.updated',
      entityType: 'role',
      entityId: roleId,
      before: { name: role.name, permissions: current, refund_limit_minor: role.refundLimitMinor },
      after: { name: updated.name, permissions, refund_limit_minor: updated.refundLimitMinor },
    });
    return viewOf(updated, await memberCountOf(t, roleId));
  });
}

export async function deleteRole(ctx: ActingContext, roleId: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    const [role] = await tx.select().from(staffRoles).where(eq(staffRoles.id, roleId)).for('update');
    if (!role) throw roleNotFound();
    if (role.key !== null) throw new StaffConflictError('adminStaff.role.builtInDelete');
    const members = await memberCountOf(t, roleId);
    if (members > 0) throw new RoleInUseError(members);
    await tx.delete(staffRoles).where(eq(staffRoles.id, roleId));
    await recordAudit(t, {
      action: 'role.deleted',
      entityType: 'role',
      entityId: roleId,
      before: { name: role.name, permissions: role.permissions, refund_limit_minor: role.refundLimitMinor },
    });
  });
}
