import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { staffMembers } from '../../db/schema';
import type { AppContext, AuditActor, TransactionContext } from '../../context';
import { recordAudit } from '../audit/audit.service';
import { verifyAgainstNothing, verifyPassword } from '../customers/passwords';
import { assertMaySignIn, recordSignInFailure, recordSignInSuccess } from '../customers/login-throttle';
import { countAttempt } from '../../shared/rate-limits';
import { createStaffSession, type IssuedStaffSession } from './staff-sessions.service';
import { memberByEmail, memberById, type StaffMemberRow } from './staff-directory';
import { ChallengeExpiredError, SecondFactorError, StaffSignInError } from './staff-errors';
import { spendSecondFactor } from './two-step.service';

/**
 * Console sign-in (docs/console.md, ADR 0100). Email and password are throttled and locked
 * like buyers' (login-throttle.ts, counted apart under the `staff` realm); an unknown email
 * or a disabled member costs the same scrypt time and gets the same answer as a wrong
 * password. A member with two-step sign-in gets a challenge instead of a session: it lives
 * five minutes, is used once, and dies after a few wrong codes.
 */

/** Where a request came from, for the session row and the audit log. */
export interface RequestOrigin {
  ip: string;
  userAgent: string | null;
  requestId: string;
}

const CHALLENGE_SECONDS = 5 * 60;
/** Wrong codes one challenge survives; then the member starts again from the password. */
const CHALLENGE_MAX_FAILURES = 5;

const challengeKey = (challenge: string) =>
  `staff:challenge:${createHash('sha256').update(challenge).digest('base64url')}`;

interface ChallengeState {
  staffId: number;
  failures: number;
  expiresAt: number;
}

export type SignInOutcome =
  | { status: 'signed_in'; session: IssuedStaffSession; staffId: number }
  | { status: 'second_factor'; challenge: string; expiresIn: number };

/** The member's own audit actor, for what they do while signing in. */
export function memberActor(member: Pick<StaffMemberRow, 'id' | 'email'>, origin: RequestOrigin): AuditActor {
  return { type: 'staff', id: member.id, label: member.email, ...origin };
}

/**
 * Opens a session for a member who passed every step, records the sign-in on the member and
 * in the audit log, in the caller's transaction.
 */
export async function openSignedInSession(
  ctx: TransactionContext,
  member: Pick<StaffMemberRow, 'id' | 'email'>,
  origin: RequestOrigin,
  method: 'password' | 'totp' | 'recovery_code' | 'setup' | 'invitation',
): Promise<IssuedStaffSession> {
  const session = await createStaffSession(ctx, member.id, origin);
  await ctx.db.update(staffMembers).set({ lastSignInAt: new Date() }).where(eq(staffMembers.id, member.id));
  await recordAudit(
    { ...ctx, actor: memberActor(member, origin) },
    {
      action: 'staff.signed_in',
      entityType: 'staff',
      entityId: member.id,
      after: { method, session_id: session.sessionId },
    },
  );
  return session;
}

/** Step one: email and password. */
export async function signInWithPassword(
  ctx: AppContext,
  input: { email: string; password: string },
  origin: RequestOrigin,
): Promise<SignInOutcome> {
  const attempt = { email: input.email, client: origin.ip, realm: 'staff' as const };
  await countAttempt(ctx, 'staffLogin.ip', origin.ip);
  await assertMaySignIn(ctx, attempt);
  const member = await memberByEmail(ctx, input.email);
  const valid = member
    ? await verifyPassword(input.password, member.passwordHash)
    : await verifyAgainstNothing(input.password);
  if (!member || !valid || member.disabledAt) {
    const lockedFor = await recordSignInFailure(ctx, attempt);
    if (lockedFor !== null && member) await recordLockout(ctx, member, origin, lockedFor);
    throw new StaffSignInError();
  }
  await recordSignInSuccess(ctx, attempt);

  if (member.totpEnabledAt) {
    const challenge = randomBytes(32).toString('base64url');
    const state: ChallengeState = { staffId: member.id, failures: 0, expiresAt: Date.now() + CHALLENGE_SECONDS * 1000 };
    await ctx.kv.set(challengeKey(challenge), JSON.stringify(state), CHALLENGE_SECONDS);
    return { status: 'second_factor', challenge, expiresIn: CHALLENGE_SECONDS };
  }
  const session = await ctx.db.transaction((tx) => openSignedInSession({ ...ctx, db: tx }, member, origin, 'password'));
  return { status: 'signed_in', session, staffId: member.id };
}

/**
 * A lockout is worth a line in the audit log (someone is guessing a member's password);
 * single failed attempts are not, they are not changes and would drown the log.
 */
async function recordLockout(ctx: AppContext, member: StaffMemberRow, origin: RequestOrigin, seconds: number) {
  await ctx.db.transaction((tx) =>
    recordAudit(
      { ...ctx, db: tx, actor: { type: 'system', id: null, label: 'console-sign-in', ...origin } },
      { action: 'staff.sign_in_locked', entityType: 'staff', entityId: member.id, after: { locked_seconds: seconds } },
    ),
  );
}

/**
 * Step two: the challenge with an authenticator or recovery code. The challenge is taken out
 * of the store while the code is checked, so it is used by one request only; a wrong code
 * puts it back with one failure more, until it has failed too often.
 */
export async function signInWithSecondFactor(
  ctx: AppContext,
  input: { challenge: string; code: string },
  origin: RequestOrigin,
): Promise<{ session: IssuedStaffSession; staffId: number }> {
  await countAttempt(ctx, 'staffSecondFactor.ip', origin.ip);
  const key = challengeKey(input.challenge);
  const raw = await ctx.kv.take(key);
  if (!raw) throw new ChallengeExpiredError();
  const state = JSON.parse(raw) as ChallengeState;
  const method = await spendSecondFactor(ctx, state.staffId, input.code, { allowRecovery: true });
  if (!method) {
    const left = Math.floor((state.expiresAt - Date.now()) / 1000);
    if (state.failures + 1 < CHALLENGE_MAX_FAILURES && left > 0)
      await ctx.kv.set(key, JSON.stringify({ ...state, failures: state.failures + 1 }), left);
    throw new SecondFactorError();
  }
  const member = await memberById(ctx, state.staffId);
  if (!member || member.disabledAt) throw new ChallengeExpiredError();
  const session = await ctx.db.transaction((tx) => openSignedInSession({ ...ctx, db: tx }, member, origin, method));
  return { session, staffId: member.id };
}
