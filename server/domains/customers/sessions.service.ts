import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { sessions, users } from '../../db/schema';
import type { AppContext, SessionUser } from '../../shared/context';

export const SESSION_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** `access_sign`: binds a token to its user so a token alone is not enough on the header path. */
export function signToken(secret: string, token: string, userId: number): string {
  return createHmac('sha256', secret).update(`${userId}.${token}`).digest('base64url');
}

export function signMatches(secret: string, token: string, userId: number, sign: string): boolean {
  const expected = Buffer.from(signToken(secret, token, userId));
  const given = Buffer.from(sign);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export interface IssuedSession {
  token: string;
  sign: string;
  expiresAt: Date;
  sessionId: number;
}

export async function createSession(ctx: AppContext, userId: number): Promise<IssuedSession> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + SESSION_LIFETIME_SECONDS * 1000);
  const [row] = await ctx.db
    .insert(sessions)
    .values({ tokenHash: hashToken(token), userId, expiresAt })
    .returning({ id: sessions.id });
  return { token, sign: signToken(ctx.env.SESSION_SECRET, token, userId), expiresAt, sessionId: row.id };
}

export type SessionLookup =
  | { status: 'active'; user: SessionUser; expiresAt: Date }
  | { status: 'expired' }
  | { status: 'missing' };

/**
 * Finds the session behind a token. `sign` is checked when the token came in a header;
 * the httpOnly cookie path passes `undefined` because a script cannot read that cookie.
 */
export async function lookupSession(
  ctx: AppContext,
  token: string,
  sign: string | undefined | null,
  now: Date = new Date(),
): Promise<SessionLookup> {
  const [row] = await ctx.db
    .select({
      sessionId: sessions.id,
      expiresAt: sessions.expiresAt,
      revokedAt: sessions.revokedAt,
      id: users.id,
      email: users.email,
      username: users.username,
      avatar: users.avatar,
      sex: users.sex,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, hashToken(token)))
    .limit(1);
  if (!row) return { status: 'expired' };
  if (sign !== undefined && (sign === null || !signMatches(ctx.env.SESSION_SECRET, token, row.id, sign))) {
    return { status: 'expired' };
  }
  if (row.revokedAt || row.expiresAt <= now) return { status: 'expired' };
  const { expiresAt, revokedAt: _revoked, ...user } = row;
  return { status: 'active', user, expiresAt };
}

export async function revokeSession(ctx: AppContext, sessionId: number): Promise<void> {
  await ctx.db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}
