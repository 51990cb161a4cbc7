import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { staffMemberRoles, staffMembers, staffRoles } from '../../db/schema';
import type { AppContext, StaffPrincipal } from '../../context';
import { BUILT_IN_ROLES, type BuiltInRoleKey } from './permissions';
import { GrantBeyondOwnError, OwnerOnlyError, StaffBadRequestError } from './staff-errors';

/**
 * Lookups the staff services share: members by email or id, their roles, and the rules for
 * who may hand out which role (docs/console.md, "Staff and roles").
 */

export type StaffMemberRow = typeof staffMembers.$inferSelect;
export type StaffRoleRow = typeof staffRoles.$inferSelect;

export const OWNER_ROLE_KEY: BuiltInRoleKey = 'owner';

/** Emails are stored trimmed and lower-cased (the schemas do it), so lookups compare as stored. */
export async function memberByEmail(ctx: AppContext, email: string): Promise<StaffMemberRow | undefined> {
  const [member] = await ctx.db
    .select()
    .from(staffMembers)
    .where(eq(staffMembers.email, email.trim().toLowerCase()))
    .limit(1);
  return member;
}

export async function memberById(ctx: AppContext, id: number): Promise<StaffMemberRow | undefined> {
  const [member] = await ctx.db.select().from(staffMembers).where(eq(staffMembers.id, id)).limit(1);
  return member;
}

/** The roles of each member, by member id. */
export async function rolesOfMembers(
  ctx: AppContext,
  staffIds: readonly number[],
): Promise<Map<number, StaffRoleRow[]>> {
  const byMember = new Map<number, StaffRoleRow[]>(staffIds.map((id) => [id, []]));
  if (staffIds.length === 0) return byMember;
  const rows = await ctx.db
    .select({ staffId: staffMemberRoles.staffId, role: staffRoles })
    .from(staffMemberRoles)
    .innerJoin(staffRoles, eq(staffRoles.id, staffMemberRoles.roleId))
    .where(inArray(staffMemberRoles.staffId, [...staffIds]))
    .orderBy(staffRoles.id);
  for (const row of rows) byMember.get(row.staffId)?.push(row.role);
  return byMember;
}

/** The roles with these ids; refuses an id that names no role. */
export async function rolesByIds(ctx: AppContext, roleIds: readonly number[]): Promise<StaffRoleRow[]> {
  const unique = [...new Set(roleIds)];
  if (unique.length === 0) return [];
  const roles = await ctx.db.select().from(staffRoles).where(inArray(staffRoles.id, unique)).orderBy(staffRoles.id);
  if (roles.length !== unique.length) throw new StaffBadRequestError('adminStaff.role.unknown');
  return roles;
}

export function requiresSecondFactor(roles: ReadonlyArray<Pick<StaffRoleRow, 'key'>>): boolean {
  return roles.some((role) => role.key !== null && BUILT_IN_ROLES[role.key as BuiltInRoleKey]?.requiresSecondFactor);
}

export function roleRefOf(role: StaffRoleRow) {
  return { id: role.id, key: role.key, name: role.name };
}

/** Whether the acting member holds the Owner role. */
export async function isOwner(ctx: AppContext, staffId: number): Promise<boolean> {
  const roles = (await rolesOfMembers(ctx, [staffId])).get(staffId) ?? [];
  return roles.some((role) => role.key === OWNER_ROLE_KEY);
}

/**
 * The rule for handing out roles (invitations, editing a member): only an Owner grants or
 * removes the Owner role, and nobody grants a role carrying a permission they lack themselves,
 * so `staff:manage` alone cannot climb to more than its holder has.
 */
export async function assertMayGrant(
  ctx: AppContext,
  actor: StaffPrincipal,
  changed: ReadonlyArray<Pick<StaffRoleRow, 'key' | 'permissions'>>,
): Promise<void> {
  if (changed.some((role) => role.key === OWNER_ROLE_KEY) && !(await isOwner(ctx, actor.id)))
    throw new OwnerOnlyError();
  if (changed.some((role) => role.permissions.some((permission) => !actor.permissions.has(permission))))
    throw new GrantBeyondOwnError();
}

/**
 * Active Owners other than `exceptStaffId`, their rows locked until the transaction ends so two
 * Owners cannot demote or disable each other at the same moment and leave the shop without one.
 */
export async function otherActiveOwners(ctx: AppContext, exceptStaffId: number): Promise<number> {
  const rows = await ctx.db
    .select({ id: staffMembers.id })
    .from(staffMembers)
    .innerJoin(staffMemberRoles, eq(staffMemberRoles.staffId, staffMembers.id))
    .innerJoin(staffRoles, eq(staffRoles.id, staffMemberRoles.roleId))
    .where(
      and(
        eq(staffRoles.key, OWNER_ROLE_KEY),
        isNull(staffMembers.disabledAt),
        sql`${staffMembers.id} <> ${exceptStaffId}`,
      ),
    )
    .for('update', { of: staffMembers });
  return rows.length;
}
