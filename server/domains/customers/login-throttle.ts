import type { AppContext } from '../../context';
import { AppError } from '../../shared/errors';
import { rateLimit, subjectKey, waitOf } from '../../shared/rate-limits';

/**
 * How failed password sign-ins slow down, without letting anyone lock an account by name.
 *
 * - A client (one address) that keeps failing on one account is locked out of that account
 *   only, for `login.lock.seconds`, doubling with every further failure up to its longest
 *   wait. Other clients, including the owner, are not affected.
 * - When an account collects `login.failures.account` failures from all clients together
 *   (a spread-out guessing attack), every client that has never signed in to it may try once
 *   per `login.slow.seconds`: guessing stays slow from any number of addresses, and the owner
 *   on a new address waits seconds, never ten minutes. Clients that signed in to the account
 *   before are not slowed.
 * - Every attempt also needs a fresh captcha (assertCaptcha), and addresses are limited across
 *   accounts by `login.ip`.
 * Unknown emails are counted the same way, so the answers reveal nothing. ADR 0080.
 */

/** This client is locked out of this account for a while (answered with Retry-After). */
export class SignInLockedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('tooManyRequests', 'accounts.login.locked', { seconds: retryAfterSeconds });
  }
}

/** The account is under a guessing attack; clients it does not know may try once in a while. */
export class SignInSlowedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('tooManyRequests', 'accounts.login.slowed', { seconds: retryAfterSeconds });
  }
}

/** Who is signing in to what: the account's email and the client (an address, or a session for password changes). */
export interface SignInAttempt {
  email: string;
  client: string;
  /**
   * Whose accounts: buyers (the default) or the console's staff, counted apart so a buyer
   * account and a staff account with the same email never share failures or locks.
   */
  realm?: 'buyer' | 'staff';
}

const pair = ({ email, client }: SignInAttempt) => `${subjectKey(email)}:${subjectKey(client)}`;
const prefix = (attempt: Pick<SignInAttempt, 'realm'>) => (attempt.realm === 'staff' ? 'staff-login' : 'login');
const keys = {
  clientFailures: (attempt: SignInAttempt) => `${prefix(attempt)}:fail:${pair(attempt)}`,
  clientLock: (attempt: SignInAttempt) => `${prefix(attempt)}:lock:${pair(attempt)}`,
  accountFailures: (attempt: SignInAttempt) => `${prefix(attempt)}:fail:${subjectKey(attempt.email)}`,
  slowed: (attempt: SignInAttempt) => `${prefix(attempt)}:slow:${pair(attempt)}`,
  known: (attempt: SignInAttempt) => `${prefix(attempt)}:known:${pair(attempt)}`,
};

/** Days a client that signed in is remembered as the account's own. */
const KNOWN_CLIENT_SECONDS = 90 * 24 * 3600;

/** Refuses an attempt this client may not make yet; call before checking the password. */
export async function assertMaySignIn(ctx: AppContext, attempt: SignInAttempt): Promise<void> {
  const locked = await ctx.kv.ttlSeconds(keys.clientLock(attempt));
  if (locked) throw new SignInLockedError(locked);

  const { max: accountFailures } = rateLimit(ctx, 'login.failures.account');
  const failures = Number((await ctx.kv.get(keys.accountFailures(attempt))) ?? 0);
  if (failures < accountFailures || (await ctx.kv.get(keys.known(attempt)))) return;
  const waiting = await ctx.kv.ttlSeconds(keys.slowed(attempt));
  if (waiting) throw new SignInSlowedError(waiting);
  await ctx.kv.set(keys.slowed(attempt), '1', waitOf(ctx, 'login.slow.seconds').firstSeconds);
}

/**
 * A wrong password: counts for this client and for the account, and locks this client when it
 * has failed too often. Answers the seconds of the lock this failure started, if it started one.
 */
export async function recordSignInFailure(ctx: AppContext, attempt: SignInAttempt): Promise<number | null> {
  const accountLimit = rateLimit(ctx, 'login.failures.account');
  await ctx.kv.increment(keys.accountFailures(attempt), accountLimit.windowSeconds);

  const clientLimit = rateLimit(ctx, 'login.failures.client');
  const lock = waitOf(ctx, 'login.lock.seconds');
  const count = await ctx.kv.increment(keys.clientFailures(attempt), clientLimit.windowSeconds);
  if (count < clientLimit.max) return null;
  const seconds = Math.min(lock.firstSeconds * 2 ** (count - clientLimit.max), lock.longestSeconds);
  await ctx.kv.set(keys.clientLock(attempt), '1', seconds);
  return seconds;
}

/** The right password: this client's failures are forgiven and it is remembered as the account's own. */
export async function recordSignInSuccess(ctx: AppContext, attempt: SignInAttempt): Promise<void> {
  await ctx.kv.delete(keys.clientFailures(attempt));
  await ctx.kv.set(keys.known(attempt), '1', KNOWN_CLIENT_SECONDS);
}
