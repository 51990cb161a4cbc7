import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { staffMemberRoles, staffMembers, staffRoles, staffTokens } from '../../db/schema';
import type { ActingContext, AppContext } from '../../context';
import { onlyRow } from '../../db/rows';
import { recordAudit, systemActor } from '../audit/audit.service';
import { hashPassword } from '../customers/passwords';
import { uniqueViolation } from '../../shared/errors';
import { countAttempt } from '../../shared/rate-limits';
import { insertLinkToken, linkUrl, liveLink, markLinkUsed } from './link-tokens';
import { openSignedInSession, memberActor, type RequestOrigin } from './sign-in.service';
import { OWNER_ROLE_KEY } from './staff-directory';
import { LinkInvalidError, StaffBadRequestError, StaffConflictError } from './staff-errors';
import { staffSetupRequired } from './staff.service';

/**
 * First start (docs/console.md, "Getting in"): while no staff member exists, a single-use link
 * valid for 24 hours creates the Owner. The server logs one at start (a fresh one each start,
 * the previous unused one revoked); `npm run shop -- staff:create-owner --email` prints one
 * bound to an email. Using any of them closes the setup: every other setup link dies with it.
 */

/**
 * Issues a setup link, revoking the live ones of the same binding (unbound ones from server
 * starts, or those for the same email from the command line). Refused once a member exists.
 */
export async function issueSetupLink(
  ctx: ActingContext,
  input: { email: string | null },
): Promise<{ url: string; expiresAt: Date }> {
  return ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    // One setup at a time: server copies starting together, or a start racing the command line.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('staff-setup'))`);
    if (!(await staffSetupRequired(t))) throw new StaffConflictError('adminStaff.setup.closed');
    await tx
      .update(staffTokens)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(staffTokens.kind, 'setup'),
          input.email === null ? isNull(staffTokens.email) : eq(staffTokens.email, input.email),
          isNull(staffTokens.usedAt),
          isNull(staffTokens.revokedAt),
          gt(staffTokens.expiresAt, new Date()),
        ),
      );
    const { row, token } = await insertLinkToken(t, 'setup', { email: input.email });
    await recordAudit(t, {
      action: 'staff.setup_link_issued',
      entityType: 'staff_link',
      entityId: row.id,
      after: { kind: 'setup', email: input.email, expires_at: row.expiresAt },
    });
    return { url: linkUrl(ctx, 'setup', token), expiresAt: row.expiresAt };
  });
}

/**
 * At server start: when no staff member exists, logs the one line with a fresh setup link
 * (the only secret the shop ever logs, once). Called by main.ts, not by test servers.
 */
export async function announceSetupLink(ctx: AppContext): Promise<void> {
  if (!(await staffSetupRequired(ctx))) return;
  try {
    const { url } = await issueSetupLink({ ...ctx, actor: systemActor('first-start') }, { email: null });
    ctx.log.info(`console setup link: ${url}`);
  } catch (error) {
    // Another copy's Owner was created a moment ago: nothing to announce.
    if (error instanceof StaffConflictError) return;
    throw error;
  }
}

/** `GET /admin/setup/:token`: whether the link still creates the Owner. */
export async function setupLinkState(ctx: AppContext, token: string, clientIp: string) {
  await countAttempt(ctx, 'staffLink.ip', clientIp);
  const link = await liveLink(ctx, 'setup', token);
  const open = link !== undefined && (await staffSetupRequired(ctx));
  return {
    valid: open,
    email: open ? (link?.email ?? null) : null,
    expires_at: open ? (link?.expiresAt.toISOString() ?? null) : null,
  };
}

/** Creates the Owner from a setup link and signs them in; the console then asks for two-step sign-in. */
export async function completeSetup(
  ctx: AppContext,
  input: { token: string; email: string; name: string; password: string; locale: string },
  origin: RequestOrigin,
) {
  await countAttempt(ctx, 'staffLink.ip', origin.ip);
  const passwordHash = await hashPassword(input.password);
  return ctx.db
    .transaction(async (tx) => {
      const t = { ...ctx, db: tx };
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('staff-setup'))`);
      const link = await liveLink(t, 'setup', input.token, { lock: true });
      if (!link) throw new LinkInvalidError();
      if (!(await staffSetupRequired(t))) throw new StaffConflictError('adminStaff.setup.closed');
      if (link.email !== null && link.email !== input.email)
        throw new StaffBadRequestError('adminStaff.setup.emailMismatch');
      const member = onlyRow(
        await tx
          .insert(staffMembers)
          .values({ email: input.email, name: input.name, passwordHash, locale: input.locale })
          .returning(),
      );
      const owner = onlyRow(await tx.select().from(staffRoles).where(eq(staffRoles.key, OWNER_ROLE_KEY)));
      await tx.insert(staffMemberRoles).values({ staffId: member.id, roleId: owner.id });
      await markLinkUsed(t, link.id);
      await tx
        .update(staffTokens)
        .set({ revokedAt: new Date() })
        .where(and(eq(staffTokens.kind, 'setup'), isNull(staffTokens.usedAt), isNull(staffTokens.revokedAt)));
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
            role_keys: [OWNER_ROLE_KEY],
            via: 'setup',
          },
        },
      );
      return { staffId: member.id, session: await openSignedInSession(t, member, origin, 'setup') };
    })
    .catch((error: unknown) => {
      if (uniqueViolation(error)) throw new StaffConflictError('adminStaff.email.taken');
      throw error;
    });
}
