import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { sessions, users } from '../../db/schema';
import { markPersonal, type AppContext, type SessionUser } from '../../context';
import { onlyRow } from '../../db/rows';
import { preparedPerDatabase } from '../../db/prepared';

export const SESSION_LIFETIME_SECONDS = 30 * 24 * 60 * 60;
/** A session in the last third of its life is renewed by the next request it makes (sliding expiry). */
export const SESSION_REFRESH_WINDOW_SECONDS = SESSION_LIFETIME_SECONDS / 3;
/** A replaced token keeps working this long, so requests already in flight with it do not fail. */
export const SESSION_ROTATION_GRACE_SECONDS = 60;

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
  const row = onlyRow(
    await ctx.db
      .insert(sessions)
      .values({ tokenHash: hashToken(token), userId, expiresAt })
      .returning({ id: sessions.id }),
  );
  return { token, sign: signToken(ctx.env.SESSION_SECRET, token, userId), expiresAt, sessionId: row.id };
}

export type SessionLookup =
  | {
      status: 'active';
      user: SessionUser;
      expiresAt: Date;
      refreshDue: boolean;
      /** users.pages_version: moves with every change the buyer's account pages show. */
      pagesVersion: number;
    }
  | { status: 'expired' }
  | { status: 'missing' };

/** The lookup every signed-in request makes (prepared: server/db/prepared.ts). */
const sessionLookup = preparedPerDatabase((db) =>
  db
    .select({
      sessionId: sessions.id,
      expiresAt: sessions.expiresAt,
      revokedAt: sessions.revokedAt,
      rotatedAt: sessions.rotatedAt,
      id: users.id,
      email: users.email,
      username: users.username,
      avatar: users.avatar,
      sex: users.sex,
      disabledAt: users.disabledAt,
      erasedAt: users.erasedAt,
      pagesVersion: users.pagesVersion,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, sql.placeholder('tokenHash')))
    .limit(1)
    .prepare('session_lookup'),
);

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
  markPersonal(ctx);
  const [row] = await sessionLookup(ctx.db).execute({ tokenHash: hashToken(token) });
  if (!row) return { status: 'expired' };
  if (sign !== undefined && (sign === null || !signMatches(ctx.env.SESSION_SECRET, token, row.id, sign))) {
    return { status: 'expired' };
  }
  // A disabled or erased account has its sessions revoked; this also stops one opened in a race with that.
  if (row.revokedAt || row.expiresAt <= now || row.disabledAt || row.erasedAt) return { status: 'expired' };
  const {
    expiresAt,
    revokedAt: _revoked,
    rotatedAt,
    disabledAt: _disabled,
    erasedAt: _erased,
    pagesVersion,
    ...user
  } = row;
  const refreshDue = !rotatedAt && expiresAt.getTime() - now.getTime() < SESSION_REFRESH_WINDOW_SECONDS * 1000;
  return { status: 'active', user, expiresAt, refreshDue, pagesVersion };
}

/**
 * Sliding expiry: replaces a session near its end with a fresh one. The old token stays
 * valid for SESSION_ROTATION_GRACE_SECONDS. Only one of several concurrent requests wins
 * the rotation (the update is conditional); the others return null and keep the old token.
 */
export async function rotateSession(ctx: AppContext, sessionId: number, userId: number): Promise<IssuedSession | null> {
  const graceEnd = new Date(Date.now() + SESSION_ROTATION_GRACE_SECONDS * 1000);
  const [rotated] = await ctx.db
    .update(sessions)
    .set({
      rotatedAt: new Date(),
      expiresAt: sql`least(${sessions.expiresAt}, ${graceEnd.toISOString()}::timestamptz)`,
    })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.rotatedAt), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  if (!rotated) return null;
  return createSession(ctx, userId);
}

/**
 * Revokes every live session of a user, or every one but `exceptSessionId` (password change);
 * answers how many it ended.
 */
export async function revokeUserSessions(ctx: AppContext, userId: number, exceptSessionId?: number): Promise<number> {
  const revoked = await ctx.db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, new Date()),
        exceptSessionId === undefined ? undefined : ne(sessions.id, exceptSessionId),
      ),
    )
    .returning({ id: sessions.id });
  return revoked.length;
}

export async function revokeSession(ctx: AppContext, sessionId: number): Promise<void> {
  await ctx.db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}
