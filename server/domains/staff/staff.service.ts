import { sql } from 'drizzle-orm';
import { staffMembers, staffRoles } from '../../db/schema';
import type { AppContext, StaffPrincipal } from '../../context';
import { BUILT_IN_ROLE_KEYS, BUILT_IN_ROLES, PERMISSIONS } from './permissions';
import type { StaffSelf } from './staff.schemas';
import { lookupStaffSession } from './staff-sessions.service';
import { SessionExpiredError } from '../../shared/errors';

/** The console's view of the signed-in member. */
export function staffSelfOf(staff: StaffPrincipal): StaffSelf {
  return {
    id: staff.id,
    email: staff.email,
    name: staff.name,
    locale: staff.locale,
    permissions: PERMISSIONS.filter((permission) => staff.permissions.has(permission)),
    role_ids: [...staff.roleIds],
    refund_limit_minor: staff.refundLimitMinor,
    second_factor: {
      enabled: staff.secondFactorEnabled,
      required: staff.secondFactorRequired,
    },
  };
}

/** True until the first staff account exists (first start: the setup link creates the Owner). */
export async function staffSetupRequired(ctx: AppContext): Promise<boolean> {
  const [row] = await ctx.db
    .select({ any: sql<number>`1` })
    .from(staffMembers)
    .limit(1);
  return row === undefined;
}

/**
 * Keeps the built-in roles in step with the code: created when missing, their permissions
 * and names re-applied (so a new permission reaches existing shops). Refund limits stay as
 * an Owner set them. Runs at start on every server copy; the upsert makes that harmless.
 */
export async function ensureBuiltInRoles(ctx: AppContext): Promise<void> {
  for (const key of BUILT_IN_ROLE_KEYS) {
    const role = BUILT_IN_ROLES[key];
    await ctx.db
      .insert(staffRoles)
      .values({ key, name: role.name, permissions: [...role.permissions], refundLimitMinor: role.refundLimitMinor })
      .onConflictDoUpdate({
        target: staffRoles.key,
        set: { name: role.name, permissions: [...role.permissions], updatedAt: new Date() },
      });
  }
}

/** The console's view of a member right after they signed in, read through their new session. */
export async function selfOfNewSession(ctx: AppContext, token: string): Promise<StaffSelf> {
  const lookup = await lookupStaffSession(ctx, token);
  if (lookup.status !== 'active') throw new SessionExpiredError();
  return staffSelfOf(lookup.staff);
}
