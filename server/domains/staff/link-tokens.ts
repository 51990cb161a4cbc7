import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { staffTokens } from '../../db/schema';
import type { AppContext } from '../../context';
import { onlyRow } from '../../db/rows';
import { siteOrigin } from '../../shared/site-origin';

/**
 * Single-use links: the first-start setup link (`setup`, 24 hours) and invitations
 * (`invite`, 72 hours). Only a SHA-256 of the token is stored; the token travels after `#`
 * in the link, so it never reaches a server log or a Referer header.
 */
export type LinkKind = 'setup' | 'invite';
export type StaffTokenRow = typeof staffTokens.$inferSelect;

export const LINK_LIFETIME_SECONDS: Record<LinkKind, number> = { setup: 24 * 3600, invite: 72 * 3600 };
const LINK_PAGE: Record<LinkKind, string> = { setup: 'setup', invite: 'invitation' };

export function hashLinkToken(token: string): string {
  return createHash('sha256').update(`staff-link:${token}`).digest('hex');
}

/** The console page a token opens, on the shop's public address. */
export function linkUrl(ctx: AppContext, kind: LinkKind, token: string): string {
  const base = siteOrigin(ctx.env, `http://localhost:${ctx.env.PORT}`);
  return `${base}/admin/${LINK_PAGE[kind]}#${token}`;
}

/** Stores a new link in the caller's transaction; answers its row and the token (to show or send once). */
export async function insertLinkToken(
  ctx: AppContext,
  kind: LinkKind,
  fields: { email: string | null; roleIds?: number[]; locale?: string | null; invitedBy?: number | null },
): Promise<{ row: StaffTokenRow; token: string }> {
  const token = randomBytes(32).toString('base64url');
  const row = onlyRow(
    await ctx.db
      .insert(staffTokens)
      .values({
        kind,
        tokenHash: hashLinkToken(token),
        email: fields.email,
        roleIds: fields.roleIds ?? [],
        locale: fields.locale ?? null,
        invitedBy: fields.invitedBy ?? null,
        expiresAt: new Date(Date.now() + LINK_LIFETIME_SECONDS[kind] * 1000),
      })
      .returning(),
  );
  return { row, token };
}

/**
 * The live link of this kind behind a token (unused, unrevoked, unexpired), or undefined.
 * With `lock`, its row stays locked until the transaction ends, so it is used once.
 */
export async function liveLink(
  ctx: AppContext,
  kind: LinkKind,
  token: string,
  options: { lock?: boolean } = {},
): Promise<StaffTokenRow | undefined> {
  const query = ctx.db
    .select()
    .from(staffTokens)
    .where(
      and(
        eq(staffTokens.tokenHash, hashLinkToken(token)),
        eq(staffTokens.kind, kind),
        isNull(staffTokens.usedAt),
        isNull(staffTokens.revokedAt),
        gt(staffTokens.expiresAt, new Date()),
      ),
    )
    .limit(1);
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

export async function markLinkUsed(ctx: AppContext, id: number): Promise<void> {
  await ctx.db.update(staffTokens).set({ usedAt: new Date() }).where(eq(staffTokens.id, id));
}
