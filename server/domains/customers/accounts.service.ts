import { randomInt } from 'node:crypto';
import { and, asc, eq, isNull, ne, or } from 'drizzle-orm';
import { users } from '../../db/schema';
import type { AppContext } from '../../context';
import { AppError, BadRequestError, uniqueViolation } from '../../shared/errors';
import { assertCaptcha } from '../captcha/captcha.service';
import {
  maskMobile,
  type ChangePasswordInput,
  type LoginAnswer,
  type LoginInput,
  type RegisterInput,
  type UpdateProfileInput,
  type UserView,
} from './accounts.schemas';
import { hashPassword, verifyAgainstNothing, verifyPassword } from './passwords';
import { assertMaySignIn, recordSignInFailure, recordSignInSuccess } from './login-throttle';
import { countAttempt } from '../../shared/rate-limits';
import { mixesScripts, usernameKey, usernameSkeleton } from './usernames';
import { createSession, revokeUserSessions, type IssuedSession } from './sessions.service';
import { onlyRow } from '../../db/rows';

export type UserRow = typeof users.$inferSelect;

/** What the API and the storefront show of a user (`GET /v1/user/info`, login answers). */
export function userView(user: UserRow): UserView {
  return {
    uid: user.id,
    id: user.id,
    username: user.username,
    email: user.email,
    mobile: maskMobile(user.mobile),
    avatar: user.avatar ?? '',
    sex: user.sex,
    has_password: Boolean(user.passwordHash),
    created_at: user.createdAt.toISOString(),
  };
}

/** A new session and the user it belongs to: the answer of every way to log in. */
export interface LoginResult {
  session: IssuedSession;
  user: UserView;
}

/** The body of every login answer (SPEC section 7: data has access_token, access_sign, user). */
export function loginAnswer({ session, user }: LoginResult): LoginAnswer {
  return { access_token: session.token, access_sign: session.sign, expires_at: session.expiresAt.toISOString(), user };
}

type UsernameRefusal = 'accounts.username.taken' | 'accounts.username.confusable';

export class FieldTakenError extends AppError {
  constructor(messageKey: 'accounts.email.taken' | UsernameRefusal) {
    super('conflict', messageKey);
  }
}

export class InvalidCredentialsError extends AppError {
  constructor() {
    super('badRequest', 'accounts.login.invalid');
  }
}

/** A disabled or erased account (docs/console.md): no way of signing in opens a session for it. */
export class AccountClosedError extends AppError {
  constructor() {
    super('forbidden', 'accounts.login.disabled');
  }
}

/** Refuses an account staff disabled or erased; every sign-in path passes here before a session opens. */
function assertAccountOpen(user: UserRow): void {
  if (user.disabledAt || user.erasedAt) throw new AccountClosedError();
}

function takenError(constraint: string): FieldTakenError {
  if (constraint.includes('email')) return new FieldTakenError('accounts.email.taken');
  return new FieldTakenError(
    constraint.includes('skeleton') ? 'accounts.username.confusable' : 'accounts.username.taken',
  );
}

/** The columns that make a username unique, written with every username. */
function usernameColumns(username: string) {
  return { username, usernameKey: usernameKey(username), usernameSkeleton: usernameSkeleton(username) };
}

export async function findUserById(ctx: AppContext, id: number): Promise<UserRow | undefined> {
  const [row] = await ctx.db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function findUserByEmail(ctx: AppContext, email: string): Promise<UserRow | undefined> {
  const [row] = await ctx.db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
  return row;
}

/** Why a username cannot be had: another account has the same name, or one that looks the same. */
async function usernameRefusal(
  ctx: AppContext,
  username: string,
  exceptUserId?: number,
): Promise<UsernameRefusal | undefined> {
  const { usernameKey: key, usernameSkeleton: skeleton } = usernameColumns(username);
  const [row] = await ctx.db
    .select({ key: users.usernameKey })
    .from(users)
    .where(
      and(
        or(eq(users.usernameKey, key), eq(users.usernameSkeleton, skeleton), eq(users.username, username)),
        ne(users.id, exceptUserId ?? 0),
      ),
    )
    .limit(1);
  if (!row) return undefined;
  return row.key === key || row.key === null ? 'accounts.username.taken' : 'accounts.username.confusable';
}

async function startSession(ctx: AppContext, user: UserRow): Promise<LoginResult> {
  assertAccountOpen(user);
  return { session: await createSession(ctx, user.id), user: userView(user) };
}

/** `POST /user/registe`: a new account, logged in at once. Duplicates are named after the captcha is solved. */
export async function register(ctx: AppContext, input: RegisterInput & { clientIp: string }): Promise<LoginResult> {
  await countAttempt(ctx, 'register.ip', input.clientIp);
  await countAttempt(ctx, 'register.email', input.email);
  await assertCaptcha(ctx, input.key, input.dots);
  if (await findUserByEmail(ctx, input.email)) throw new FieldTakenError('accounts.email.taken');
  const usernameProblem = await usernameRefusal(ctx, input.username);
  if (usernameProblem) throw new FieldTakenError(usernameProblem);
  try {
    const user = onlyRow(
      await ctx.db
        .insert(users)
        .values({
          email: input.email,
          ...usernameColumns(input.username),
          mobile: input.mobile,
          passwordHash: await hashPassword(input.password),
          avatar: input.avatar || null,
          sex: input.sex ?? 0,
        })
        .returning(),
    );
    return await startSession(ctx, user);
  } catch (error) {
    const constraint = uniqueViolation(error);
    if (constraint) throw takenError(constraint);
    throw error;
  }
}

/**
 * `POST /user/login`. Unknown email and wrong password get the same message and take the
 * same time; failures slow this client down on this account whether or not it exists
 * (login-throttle.ts), never the account's owner elsewhere.
 */
export async function loginWithPassword(
  ctx: AppContext,
  input: LoginInput & { clientIp: string },
): Promise<LoginResult> {
  const attempt = { email: input.email, client: input.clientIp };
  await countAttempt(ctx, 'login.ip', input.clientIp);
  await assertMaySignIn(ctx, attempt);
  await assertCaptcha(ctx, input.key, input.dots);
  const user = await findUserByEmail(ctx, input.email);
  const valid = user?.passwordHash
    ? await verifyPassword(input.password, user.passwordHash)
    : await verifyAgainstNothing(input.password);
  if (!user || !valid) {
    await recordSignInFailure(ctx, attempt);
    throw new InvalidCredentialsError();
  }
  await recordSignInSuccess(ctx, attempt);
  return startSession(ctx, user);
}

/** A username made from an email's local part, with digits added until it is free. */
async function freeUsernameFor(ctx: AppContext, email: string): Promise<string> {
  const localPart = (
    (email.split('@')[0] ?? '')
      .normalize('NFKC')
      .replace(/[^\p{L}\p{N}._-]+/gu, '')
      .replace(/^[._-]+/, '') || 'user'
  ).slice(0, 24);
  const base = mixesScripts(localPart) ? 'user' : localPart;
  const padded = base.length >= 2 ? base : `${base}user`;
  if (!(await usernameRefusal(ctx, padded))) return padded;
  for (let attempt = 0; attempt < 8; attempt++) {
    const candidate = `${padded}${randomInt(1000, 100000)}`;
    if (!(await usernameRefusal(ctx, candidate))) return candidate;
  }
  return `user${Date.now().toString(36)}${randomInt(1000, 10000)}`;
}

/**
 * The account of a proven email address, created when there is none yet (emailed code and
 * Google sign-in prove the address, so they may open an account; ADR 0012).
 */
export async function findOrCreateUserByEmail(
  ctx: AppContext,
  email: string,
  profile: { avatar?: string } = {},
): Promise<UserRow> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const existing = await findUserByEmail(ctx, email);
    // Refused before the proof changes anything on a closed account (markEmailProven drops its password).
    if (existing) assertAccountOpen(existing);
    if (existing) return existing.emailVerifiedAt ? existing : await markEmailProven(ctx, existing);
    try {
      const created = onlyRow(
        await ctx.db
          .insert(users)
          .values({
            email: email.toLowerCase(),
            ...usernameColumns(await freeUsernameFor(ctx, email)),
            avatar: profile.avatar ?? null,
            emailVerifiedAt: new Date(),
          })
          .returning(),
      );
      return created;
    } catch (error) {
      if (!uniqueViolation(error)) throw error;
      // Someone took the email or the username at the same moment: look again.
    }
  }
  throw new Error('could not create an account for a verified email');
}

/**
 * The first proof of an address that signed up with a password. Whoever chose that password
 * never showed they own the address (it may have been registered by someone squatting on
 * it), so the password and every session opened with it go; the owner can set a new one.
 */
async function markEmailProven(ctx: AppContext, user: UserRow): Promise<UserRow> {
  const [proven] = await ctx.db
    .update(users)
    .set({ emailVerifiedAt: new Date(), passwordHash: null })
    .where(and(eq(users.id, user.id), isNull(users.emailVerifiedAt)))
    .returning();
  if (!proven) return (await findUserByEmail(ctx, user.email)) ?? user;
  await revokeUserSessions(ctx, user.id);
  return proven;
}

export async function loginUser(ctx: AppContext, user: UserRow): Promise<LoginResult> {
  return startSession(ctx, user);
}

/** `PUT /user/info`. */
export async function updateProfile(ctx: AppContext, userId: number, input: UpdateProfileInput): Promise<UserView> {
  const usernameProblem = input.username ? await usernameRefusal(ctx, input.username, userId) : undefined;
  if (usernameProblem) throw new FieldTakenError(usernameProblem);
  const changes = {
    ...(input.username === undefined ? {} : usernameColumns(input.username)),
    ...(input.avatar === undefined ? {} : { avatar: input.avatar || null }),
    ...(input.sex === undefined ? {} : { sex: input.sex }),
  };
  try {
    const user = onlyRow(
      Object.keys(changes).length > 0
        ? await ctx.db
            .update(users)
            .set({ ...changes, updatedAt: new Date() })
            .where(eq(users.id, userId))
            .returning()
        : await ctx.db.select().from(users).where(eq(users.id, userId)),
    );
    return userView(user);
  } catch (error) {
    const constraint = uniqueViolation(error);
    if (constraint) throw takenError(constraint);
    throw error;
  }
}

/**
 * `PUT /user/password`: needs the current password when the account has one, then logs
 * out every other session of the user. Wrong current passwords lock this session out of
 * trying again for a while, like a client failing to sign in.
 */
export async function changePassword(
  ctx: AppContext,
  current: { userId: number; sessionId: number },
  input: ChangePasswordInput,
): Promise<void> {
  const user = await findUserById(ctx, current.userId);
  if (!user) throw new BadRequestError();
  if (user.passwordHash) {
    if (!input.old_password) throw new BadRequestError('accounts.password.oldRequired');
    const attempt = { email: user.email, client: `session:${current.sessionId}` };
    await assertMaySignIn(ctx, attempt);
    if (!(await verifyPassword(input.old_password, user.passwordHash))) {
      await recordSignInFailure(ctx, attempt);
      throw new BadRequestError('accounts.password.wrongOld');
    }
  }
  await ctx.db
    .update(users)
    .set({ passwordHash: await hashPassword(input.new_password), updatedAt: new Date() })
    .where(eq(users.id, user.id));
  await revokeUserSessions(ctx, user.id, current.sessionId);
}

/**
 * Gives rows older than the username keys their key and skeleton (run at start, after the
 * migrations; ADR 0080). When two existing names fold or look alike, the later account keeps
 * its name and sign-in but gets its key marked with its id (`#id` cannot be typed in a
 * username), so neither can be taken again by a third. Safe to run on several copies at once.
 */
export async function backfillUsernameKeys(ctx: AppContext): Promise<number> {
  let filled = 0;
  for (;;) {
    const rows = await ctx.db
      .select({ id: users.id, username: users.username })
      .from(users)
      .where(isNull(users.usernameKey))
      .orderBy(asc(users.id))
      .limit(500);
    if (rows.length === 0) return filled;
    for (const row of rows) {
      const columns = usernameColumns(row.username);
      const taken = await ctx.db
        .select({ key: users.usernameKey, skeleton: users.usernameSkeleton })
        .from(users)
        .where(
          and(
            ne(users.id, row.id),
            or(eq(users.usernameKey, columns.usernameKey), eq(users.usernameSkeleton, columns.usernameSkeleton)),
          ),
        );
      const keyTaken = taken.some((other) => other.key === columns.usernameKey);
      const skeletonTaken = taken.some((other) => other.skeleton === columns.usernameSkeleton);
      try {
        await ctx.db
          .update(users)
          .set({
            usernameKey: keyTaken ? `${columns.usernameKey}#${row.id}` : columns.usernameKey,
            usernameSkeleton: skeletonTaken ? `${columns.usernameSkeleton}#${row.id}` : columns.usernameSkeleton,
          })
          .where(and(eq(users.id, row.id), isNull(users.usernameKey)));
        filled += 1;
      } catch (error) {
        // Another copy filled a look-alike row at the same moment: this row is read again next round.
        if (!uniqueViolation(error)) throw error;
      }
    }
  }
}
