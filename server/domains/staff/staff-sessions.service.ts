import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { staffMemberRoles, staffMembers, staffRoles, staffSessions } from '../../db/schema';
import { onlyRow } from '../../db/rows';
import type { AppContext, StaffPrincipal } from '../../context';
import { isLocale } from '../../../i18n/locales';
import { BUILT_IN_ROLES, isPermission, refundLimitOf, type BuiltInRoleKey } from './permissions';

/** A console session ends after this long without use... */
export const STAFF_SESSION_IDLE_SECONDS = 12 * 60 * 60;
/** ...and after this long in any case; then the member signs in again (with their second factor). */
export const STAFF_SESSION_MAX_SECONDS = 7 * 24 * 60 * 60;
/** Activity moves the idle deadline at most this often, so a busy console is not a write per request. */
const TOUCH_EVERY_MS = 5 * 60 * 1000;

function hashStaffToken(token: string): string {
  return createHash('sha256').update(`staff:${token}`).digest('hex');
}

export interface IssuedStaffSession {
  token: string;
  sessionId: number;
  expiresAt: Date;
}

export interface StaffSessionOrigin {
  ip?: string | null;
  userAgent?: string | null;
}

/** Opens a session for a member who has passed every step of sign-in. */
export async function createStaffSession(
  ctx: AppContext,
  staffId: number,
  origin: StaffSessionOrigin,
): Promise<IssuedStaffSession> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + STAFF_SESSION_IDLE_SECONDS * 1000);
  const row = onlyRow(
    await ctx.db
      .insert(staffSessions)
      .values({
        tokenHash: hashStaffToken(token),
        staffId,
        secondFactorAt: new Date(),
        ip: origin.ip ?? null,
        userAgent: origin.userAgent?.slice(0, 500) ?? null,
        expiresAt,
      })
      .returning({ id: staffSessions.id }),
  );
  return { token, sessionId: row.id, expiresAt };
}

export type StaffSessionLookup =
  { status: 'active'; staff: StaffPrincipal } | { status: 'expired' } | { status: 'missing' };

/**
 * The member behind a console token, with the permissions of their roles. A revoked, expired
 * or idle session, or a disabled member, is `expired`.
 */
export async function lookupStaffSession(ctx: AppContext, token: string): Promise<StaffSessionLookup> {
  const now = new Date();
  const [found] = await ctx.db
    .select({
      sessionId: staffSessions.id,
      expiresAt: staffSessions.expiresAt,
      createdAt: staffSessions.createdAt,
      lastSeenAt: staffSessions.lastSeenAt,
      revokedAt: staffSessions.revokedAt,
      id: staffMembers.id,
      email: staffMembers.email,
      name: staffMembers.name,
      locale: staffMembers.locale,
      totpEnabledAt: staffMembers.totpEnabledAt,
      disabledAt: staffMembers.disabledAt,
    })
    .from(staffSessions)
    .innerJoin(staffMembers, eq(staffMembers.id, staffSessions.staffId))
    .where(eq(staffSessions.tokenHash, hashStaffToken(token)))
    .limit(1);
  if (!found) return { status: 'missing' };
  if (found.revokedAt || found.disabledAt || found.expiresAt <= now) return { status: 'expired' };

  const roles = await ctx.db
    .select({
      id: staffRoles.id,
      key: staffRoles.key,
      permissions: staffRoles.permissions,
      refundLimitMinor: staffRoles.refundLimitMinor,
    })
    .from(staffMemberRoles)
    .innerJoin(staffRoles, eq(staffRoles.id, staffMemberRoles.roleId))
    .where(eq(staffMemberRoles.staffId, found.id));

  if (now.getTime() - found.lastSeenAt.getTime() > TOUCH_EVERY_MS) await touchStaffSession(ctx, found, now);

  const secondFactorRequired = roles.some(
    (role) => role.key !== null && BUILT_IN_ROLES[role.key as BuiltInRoleKey]?.requiresSecondFactor,
  );
  return {
    status: 'active',
    staff: {
      id: found.id,
      email: found.email,
      name: found.name,
      locale: isLocale(found.locale) ? found.locale : 'zh-cn',
      permissions: new Set(roles.flatMap((role) => role.permissions.filter(isPermission))),
      roleIds: roles.map((role) => role.id),
      refundLimitMinor: refundLimitOf(roles),
      secondFactorRequired,
      secondFactorEnabled: found.totpEnabledAt !== null,
      mustEnrolSecondFactor: secondFactorRequired && found.totpEnabledAt === null,
      sessionId: found.sessionId,
    },
  };
}

async function touchStaffSession(
  ctx: AppContext,
  session: { sessionId: number; createdAt: Date },
  now: Date,
): Promise<void> {
  const hardEnd = session.createdAt.getTime() + STAFF_SESSION_MAX_SECONDS * 1000;
  const expiresAt = new Date(Math.min(hardEnd, now.getTime() + STAFF_SESSION_IDLE_SECONDS * 1000));
  await ctx.db.update(staffSessions).set({ lastSeenAt: now, expiresAt }).where(eq(staffSessions.id, session.sessionId));
}

/** Ends one session (sign-out, or revoked from the sessions list). */
export async function revokeStaffSession(ctx: AppContext, staffId: number, sessionId: number): Promise<boolean> {
  const revoked = await ctx.db
    .update(staffSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(staffSessions.id, sessionId), eq(staffSessions.staffId, staffId), isNull(staffSessions.revokedAt)))
    .returning({ id: staffSessions.id });
  return revoked.length > 0;
}

/** Ends every session of a member (disabled, password changed, roles removed), optionally but one. */
export async function revokeAllStaffSessions(
  ctx: AppContext,
  staffId: number,
  exceptSessionId?: number,
): Promise<number> {
  const revoked = await ctx.db
    .update(staffSessions)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(staffSessions.staffId, staffId),
        isNull(staffSessions.revokedAt),
        exceptSessionId === undefined ? sql`true` : sql`${staffSessions.id} <> ${exceptSessionId}`,
      ),
    )
    .returning({ id: staffSessions.id });
  return revoked.length;
}

/** Live sessions of the given members, newest first (for the sessions lists). */
export async function activeStaffSessions(ctx: AppContext, staffIds: readonly number[]) {
  if (staffIds.length === 0) return [];
  return ctx.db
    .select({
      id: staffSessions.id,
      staffId: staffSessions.staffId,
      ip: staffSessions.ip,
      userAgent: staffSessions.userAgent,
      createdAt: staffSessions.createdAt,
      lastSeenAt: staffSessions.lastSeenAt,
      expiresAt: staffSessions.expiresAt,
    })
    .from(staffSessions)
    .where(
      and(
        inArray(staffSessions.staffId, [...staffIds]),
        isNull(staffSessions.revokedAt),
        gt(staffSessions.expiresAt, new Date()),
      ),
    )
    .orderBy(sql`${staffSessions.lastSeenAt} desc`);
}
