import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import { isLocale } from '../../../i18n';
import { staffMemberRoles, staffMembers, staffRoles, staffTokens } from '../../db/schema';
import type { ActingContext, AppContext, StaffPrincipal } from '../../context';
import { onlyRow } from '../../db/rows';
import { recordAudit } from '../audit/audit.service';
import { hashPassword } from '../customers/passwords';
import { uniqueViolation } from '../../shared/errors';
import { countAttempt } from '../../shared/rate-limits';
import { enqueueInvitationMail } from './invitation-mail';
import { insertLinkToken, liveLink, markLinkUsed, type StaffTokenRow } from './link-tokens';
import { memberActor, openSignedInSession, type RequestOrigin } from './sign-in.service';
import { assertMayGrant, memberByEmail, roleRefOf, rolesByIds } from './staff-directory';
import { LinkInvalidError, StaffConflictError } from './staff-errors';
import { NotFoundError } from '../../shared/errors';

/**
 * Staff invitations (docs/console.md): a member with `staff:manage` invites an email with
 * roles; the emailed link (72 hours, single use) lets the person choose a name and password
 * and arrive signed in with those roles. A new invitation to the same email replaces the
 * pending one.
 */

async function roleRefsOf(ctx: AppContext, roleIds: readonly number[]) {
  if (roleIds.length === 0) return [];
  const roles = await ctx.db.select().from(staffRoles);
  return roles.filter((role) => roleIds.includes(role.id)).map(roleRefOf);
}

function invitationLocale(row: StaffTokenRow) {
  return isLocale(row.locale) ? row.locale : 'zh-cn';
}

export async function inviteStaff(
  ctx: ActingContext,
  actor: StaffPrincipal,
  input: { email: string; role_ids: number[]; locale: 'en' | 'zh-cn' },
) {
  const roles = await rolesByIds(ctx, input.role_ids);
  await assertMayGrant(ctx, actor, roles);
  if (await memberByEmail(ctx, input.email)) throw new StaffConflictError('adminStaff.email.taken');
  return ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    await tx
      .update(staffTokens)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(staffTokens.kind, 'invite'),
          eq(staffTokens.email, input.email),
          isNull(staffTokens.usedAt),
          isNull(staffTokens.revokedAt),
        ),
      );
    const { row, token } = await insertLinkToken(t, 'invite', {
      email: input.email,
      roleIds: roles.map((role) => role.id),
      locale: input.locale,
      invitedBy: actor.id,
    });
    await enqueueInvitationMail(t, row.id, token);
    await recordAudit(t, {
      action: 'staff.invited',
      entityType: 'staff_invitation',
      entityId: row.id,
      after: { email: row.email, role_ids: row.roleIds, locale: row.locale, expires_at: row.expiresAt },
    });
    return {
      id: row.id,
      email: input.email,
      roles: roles.map(roleRefOf),
      locale: input.locale,
      invited_by: { id: actor.id, name: actor.name },
      created_at: row.createdAt.toISOString(),
      expires_at: row.expiresAt.toISOString(),
    };
  });
}

/** Invitations not yet used, revoked or expired, newest first. */
export async function pendingInvitations(ctx: AppContext) {
  const rows = await ctx.db
    .select({ token: staffTokens, inviterId: staffMembers.id, inviterName: staffMembers.name })
    .from(staffTokens)
    .leftJoin(staffMembers, eq(staffMembers.id, staffTokens.invitedBy))
    .where(
      and(
        eq(staffTokens.kind, 'invite'),
        isNull(staffTokens.usedAt),
        isNull(staffTokens.revokedAt),
        gt(staffTokens.expiresAt, new Date()),
      ),
    )
    .orderBy(desc(staffTokens.createdAt), desc(staffTokens.id));
  const roles = (await ctx.db.select().from(staffRoles)).map(roleRefOf);
  return rows.map(({ token, inviterId, inviterName }) => ({
    id: token.id,
    email: token.email ?? '',
    roles: roles.filter((role) => token.roleIds.includes(role.id)),
    locale: invitationLocale(token),
    invited_by: inviterId !== null && inviterName !== null ? { id: inviterId, name: inviterName } : null,
    created_at: token.createdAt.toISOString(),
    expires_at: token.expiresAt.toISOString(),
  }));
}

export async function revokeInvitation(ctx: ActingContext, invitationId: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const revoked = await tx
      .update(staffTokens)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(staffTokens.id, invitationId),
          eq(staffTokens.kind, 'invite'),
          isNull(staffTokens.usedAt),
          isNull(staffTokens.revokedAt),
        ),
      )
      .returning();
    const row = revoked[0];
    if (!row) throw new NotFoundError('adminStaff.invitation.notFound');
    await recordAudit(
      { ...ctx, db: tx },
      {
        action: 'staff.invitation_revoked',
        entityType: 'staff_invitation',
        entityId: row.id,
        before: { email: row.email, status: 'pending' },
        after: { email: row.email, status: 'revoked' },
      },
    );
  });
}

/** What the invited person sees before accepting; a dead link is 404. */
export async function invitationPreview(ctx: AppContext, token: string, clientIp: string) {
  await countAttempt(ctx, 'staffLink.ip', clientIp);
  const row = await liveLink(ctx, 'invite', token);
  if (!row?.email) throw new LinkInvalidError();
  const inviter = row.invitedBy
    ? await ctx.db.select({ name: staffMembers.name }).from(staffMembers).where(eq(staffMembers.id, row.invitedBy))
    : [];
  return {
    email: row.email,
    roles: await roleRefsOf(ctx, row.roleIds),
    locale: invitationLocale(row),
    invited_by: inviter[0]?.name ?? null,
    expires_at: row.expiresAt.toISOString(),
  };
}

/**
 * Accepts an invitation: the member is created with the invited roles that still exist and
 * signed in. The link row is locked while this runs, so it is used once.
 */
export async function acceptInvitation(
  ctx: AppContext,
  input: { token: string; name: string; password: string },
  origin: RequestOrigin,
) {
  await countAttempt(ctx, 'staffLink.ip', origin.ip);
  const passwordHash = await hashPassword(input.password);
  return ctx.db
    .transaction(async (tx) => {
      const t = { ...ctx, db: tx };
      const link = await liveLink(t, 'invite', input.token, { lock: true });
      if (!link?.email) throw new LinkInvalidError();
      const member = onlyRow(
        await tx
          .insert(staffMembers)
          .values({ email: link.email, name: input.name, passwordHash, locale: invitationLocale(link) })
          .returning(),
      );
      const roles = await roleRefsOf(t, link.roleIds);
      if (roles.length > 0)
        await tx.insert(staffMemberRoles).values(roles.map((role) => ({ staffId: member.id, roleId: role.id })));
      await markLinkUsed(t, link.id);
      await recordAudit(
        { ...t, actor: memberActor(member, origin) },
        {
          action: 'staff.joined',
          entityType: 'staff',
          entityId: member.id,
          after: {
            email: member.email,
            name: member.name,
            locale: member.locale,
            role_ids: roles.map((role) => role.id),
            invitation_id: link.id,
          },
        },
      );
      return { staffId: member.id, session: await openSignedInSession(t, member, origin, 'invitation') };
    })
    .catch((error: unknown) => {
      if (uniqueViolation(error)) throw new StaffConflictError('adminStaff.email.taken');
      throw error;
    });
}
