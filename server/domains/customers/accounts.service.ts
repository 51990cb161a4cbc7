import { randomInt } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { users } from '../../db/schema';
import type { AppContext } from '../../shared/context';
import { AppError, BadRequestError } from '../../shared/errors';
import { assertCaptcha } from '../captcha/captcha.service';
import {
  maskMobile,
  type ChangePasswordInput,
  type LoginInput,
  type RegisterInput,
  type UpdateProfileInput,
} from './accounts.schemas';
import { hashPassword, verifyAgainstNothing, verifyPassword } from './passwords';
import { assertMaySignIn, recordSignInFailure, recordSignInSuccess } from './login-throttle';
import { countAttempt } from './rate-limits';
import { createSession, revokeUserSessions, type IssuedSession } from './sessions.service';

export type UserRow = typeof users.$inferSelect;

/** What the API and the storefront show of a user (`GET /v1/user/info`, login answers). */
export function userView(user: UserRow) {
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

export type UserView = ReturnType<typeof userView>;

/** A new session and the user it belongs to: the answer of every way to log in. */
export interface LoginResult {
  session: IssuedSession;
  user: UserView;
}

/** The body of every login answer (SPEC section 7: data has access_token, access_sign, user). */
export function loginAnswer({ session, user }: LoginResult) {
  return { access_token: session.token, access_sign: session.sign, expires_at: session.expiresAt.toISOString(), user };
}

export class FieldTakenError extends AppError {
  constructor(messageKey: 'accounts.email.taken' | 'accounts.username.taken') {
    super(messageKey, 409, 409);
  }
}

export class InvalidCredentialsError extends AppError {
  constructor() {
    super('accounts.login.invalid', 400, 400);
  }
}

/** The unique constraint a failed insert or update ran into, if that is what happened. */
function uniqueViolation(error: unknown): string | undefined {
  for (let current = error as { code?: string; constraint?: string; cause?: unknown } | undefined, depth = 0; current && depth < 4; depth++) {
    if (current.code === '23505') return current.constraint ?? 'unknown';
    current = current.cause as typeof current;
  }
  return undefined;
}

function takenError(constraint: string): FieldTakenError {
  return new FieldTakenError(constraint.includes('email') ? 'accounts.email.taken' : 'accounts.username.taken');
}

export async function findUserById(ctx: AppContext, id: number): Promise<UserRow | undefined> {
  const [row] = await ctx.db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function findUserByEmail(ctx: AppContext, email: string): Promise<UserRow | undefined> {
  const [row] = await ctx.db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
  return row;
}

async function usernameTaken(ctx: AppContext, username: string, exceptUserId?: number): Promise<boolean> {
  const [row] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.username, username)).limit(1);
  return Boolean(row && row.id !== exceptUserId);
}

async function startSession(ctx: AppContext, user: UserRow): Promise<LoginResult> {
  return { session: await createSession(ctx, user.id), user: userView(user) };
}

/** `POST /user/registe`: a new account, logged in at once. Duplicates are named after the captcha is solved. */
export async function register(ctx: AppContext, input: RegisterInput & { clientIp: string }): Promise<LoginResult> {
  await countAttempt(ctx, 'register.ip', input.clientIp);
  await countAttempt(ctx, 'register.email', input.email);
  await assertCaptcha(ctx, input.key, input.dots);
  if (await findUserByEmail(ctx, input.email)) throw new FieldTakenError('accounts.email.taken');
  if (await usernameTaken(ctx, input.username)) throw new FieldTakenError('accounts.username.taken');
  try {
    const [user] = await ctx.db
      .insert(users)
      .values({
        email: input.email,
        username: input.username,
        mobile: input.mobile,
        passwordHash: await hashPassword(input.password),
        avatar: input.avatar || null,
        sex: input.sex ?? 0,
      })
      .returning();
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
export async function loginWithPassword(ctx: AppContext, input: LoginInput & { clientIp: string }): Promise<LoginResult> {
  const attempt = { email: input.email, client: input.clientIp };
  await countAttempt(ctx, 'login.ip', input.clientIp);
  await assertMaySignIn(ctx, attempt);
  await assertCaptcha(ctx, input.key, input.dots);
  const user = await findUserByEmail(ctx, input.email);
  const valid = user?.passwordHash ? await verifyPassword(input.password, user.passwordHash) : await verifyAgainstNothing(input.password);
  if (!user || !valid) {
    await recordSignInFailure(ctx, attempt);
    throw new InvalidCredentialsError();
  }
  await recordSignInSuccess(ctx, attempt);
  return startSession(ctx, user);
}

/** A username made from an email's local part, with digits added until it is free. */
async function freeUsernameFor(ctx: AppContext, email: string): Promise<string> {
  const base = (email.split('@')[0].normalize('NFKC').replace(/[^\p{L}\p{N}._-]+/gu, '').replace(/^[._-]+/, '') || 'user').slice(0, 24);
  const padded = base.length >= 2 ? base : `${base}user`;
  if (!(await usernameTaken(ctx, padded))) return padded;
  for (let attempt = 0; attempt < 8; attempt++) {
    const candidate = `${padded}${randomInt(1000, 100000)}`;
    if (!(await usernameTaken(ctx, candidate))) return candidate;
  }
  return `user${Date.now().toString(36)}${randomInt(1000, 10000)}`;
}

/**
 * The account of a proven email address, created when there is none yet (emailed code and
 * Google sign-in prove the address, so they may open an account; ADR 0012).
 */
export async function findOrCreateUserByEmail(ctx: AppContext, email: string, profile: { avatar?: string } = {}): Promise<UserRow> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const existing = await findUserByEmail(ctx, email);
    if (existing) return existing.emailVerifiedAt ? existing : await markEmailProven(ctx, existing);
    try {
      const [created] = await ctx.db
        .insert(users)
        .values({
          email: email.toLowerCase(),
          username: await freeUsernameFor(ctx, email),
          avatar: profile.avatar ?? null,
          emailVerifiedAt: new Date(),
        })
        .returning();
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
  if (input.username && (await usernameTaken(ctx, input.username, userId))) throw new FieldTakenError('accounts.username.taken');
  const changes = {
    ...(input.username === undefined ? {} : { username: input.username }),
    ...(input.avatar === undefined ? {} : { avatar: input.avatar || null }),
    ...(input.sex === undefined ? {} : { sex: input.sex }),
  };
  try {
    const [user] =
      Object.keys(changes).length > 0
        ? await ctx.db.update(users).set({ ...changes, updatedAt: new Date() }).where(eq(users.id, userId)).returning()
        : await ctx.db.select().from(users).where(eq(users.id, userId));
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

