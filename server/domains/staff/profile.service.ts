import { eq } from 'drizzle-orm';
import { staffMembers } from '../../db/schema';
import type { ActingContext, StaffPrincipal } from '../../context';
import { recordAudit } from '../audit/audit.service';
import { hashPassword, verifyPassword } from '../customers/passwords';
import { assertMaySignIn, recordSignInFailure, recordSignInSuccess } from '../customers/login-throttle';
import { memberById } from './staff-directory';
import { StaffBadRequestError } from './staff-errors';
import { revokeAllStaffSessions } from './staff-sessions.service';

/** The signed-in member's own profile: name, language and password (two-step sign-in: two-step.service.ts). */

export async function updateMyProfile(
  ctx: ActingContext,
  staff: StaffPrincipal,
  input: { name: string; locale: 'en' | 'zh-cn' },
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(staffMembers)
      .set({ name: input.name, locale: input.locale, updatedAt: new Date() })
      .where(eq(staffMembers.id, staff.id));
    await recordAudit(
      { ...ctx, db: tx },
      {
        action: 'staff.updated',
        entityType: 'staff',
        entityId: staff.id,
        before: { name: staff.name, locale: staff.locale },
        after: { name: input.name, locale: input.locale },
      },
    );
  });
}

/**
 * Changes the password after checking the current one (throttled like sign-in, per session,
 * so a stolen session cannot guess at leisure) and ends every other session of the member.
 */
export async function changeMyPassword(
  ctx: ActingContext,
  staff: StaffPrincipal,
  input: { current_password: string; new_password: string },
): Promise<{ sessionsEnded: number }> {
  const attempt = { email: staff.email, client: `session:${staff.sessionId}`, realm: 'staff' as const };
  await assertMaySignIn(ctx, attempt);
  const member = await memberById(ctx, staff.id);
  if (!member || !(await verifyPassword(input.current_password, member.passwordHash))) {
    await recordSignInFailure(ctx, attempt);
    throw new StaffBadRequestError('adminStaff.password.wrongCurrent');
  }
  await recordSignInSuccess(ctx, attempt);
  const passwordHash = await hashPassword(input.new_password);
  return ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    const changedAt = new Date();
    await tx.update(staffMembers).set({ passwordHash, updatedAt: changedAt }).where(eq(staffMembers.id, staff.id));
    const sessionsEnded = await revokeAllStaffSessions(t, staff.id, staff.sessionId);
    await recordAudit(t, {
      action: 'staff.password_changed',
      entityType: 'staff',
      entityId: staff.id,
      after: { password_hash: 'changed', other_sessions_ended: sessionsEnded },
    });
    return { sessionsEnded };
  });
}
