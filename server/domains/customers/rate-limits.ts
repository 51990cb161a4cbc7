import { createHash } from 'node:crypto';
import { AppError, TooManyRequestsError } from '../../shared/errors';
import type { AppContext } from '../../shared/context';

/**
 * Every account rate limit in one place. A limit allows `max` attempts per `windowSeconds`
 * for one subject (a client IP or an email address); counters live in the shared store
 * (`ctx.kv`, Redis when REDIS_URL is set), so all copies of the shop count together.
 * Override any of them with RATE_LIMITS, e.g. `login.ip=100/600,captcha.ip=1000/60`.
 */
export const DEFAULT_RATE_LIMITS = {
  'captcha.ip': { max: 30, windowSeconds: 60 },
  'register.ip': { max: 10, windowSeconds: 600 },
  'register.email': { max: 5, windowSeconds: 600 },
  'login.ip': { max: 30, windowSeconds: 600 },
  'login.email': { max: 10, windowSeconds: 600 },
  'sendCode.ip': { max: 10, windowSeconds: 600 },
  'sendCode.email': { max: 5, windowSeconds: 3600 },
  'loginByCode.ip': { max: 30, windowSeconds: 600 },
  'loginByCode.email': { max: 10, windowSeconds: 600 },
  'platform.ip': { max: 30, windowSeconds: 600 },
  /** One buyer's upload allowance: images stored, and their bytes after re-encoding (server/domains/uploads/upload-quota.ts). */
  'upload.quota.images': { max: 50, windowSeconds: 86_400 },
  'upload.quota.bytes': { max: 50 * 1024 * 1024, windowSeconds: 86_400 },
  'upload.user': { max: 30, windowSeconds: 600 },
  /** Failed password logins for one email before it is locked; the lock doubles from `lockout.seconds`. */
  'lockout.failures': { max: 5, windowSeconds: 3600 },
  'lockout.seconds': { max: 30, windowSeconds: 900 },
} as const satisfies Record<string, RateLimit>;

export type RateLimitName = keyof typeof DEFAULT_RATE_LIMITS;

export interface RateLimit {
  max: number;
  windowSeconds: number;
}

let parsed: { source: string; limits: Record<string, RateLimit> } | undefined;

export function rateLimit(ctx: AppContext, name: RateLimitName): RateLimit {
  const source = ctx.env.RATE_LIMITS ?? '';
  if (parsed?.source !== source) {
    const limits: Record<string, RateLimit> = { ...DEFAULT_RATE_LIMITS };
    for (const pair of source.split(',')) {
      const match = /^\s*([\w.]+)=(\d+)\/(\d+)\s*$/.exec(pair);
      if (match && match[1] in DEFAULT_RATE_LIMITS) limits[match[1]] = { max: Number(match[2]), windowSeconds: Number(match[3]) };
    }
    parsed = { source, limits };
  }
  return parsed.limits[name];
}

/** Emails and IPs are hashed before they become keys, so the shared store holds no addresses. */
export function subjectKey(subject: string): string {
  return createHash('sha256').update(subject.trim().toLowerCase()).digest('base64url').slice(0, 22);
}

/** Counts one attempt; throws a 429 (with Retry-After) once the subject is over its limit. */
export async function countAttempt(ctx: AppContext, name: RateLimitName, subject: string): Promise<void> {
  const { max, windowSeconds } = rateLimit(ctx, name);
  const key = `rl:${name}:${subjectKey(subject)}`;
  const count = await ctx.kv.increment(key, windowSeconds);
  if (count > max) throw new TooManyRequestsError((await ctx.kv.ttlSeconds(key)) ?? windowSeconds);
}

/** An account locked after repeated failed logins: 429 with its own message and Retry-After. */
export class AccountLockedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('accounts.login.locked', 429, 429, { seconds: retryAfterSeconds });
  }
}

const lockKey = (email: string) => `lock:login:${subjectKey(email)}`;
const failureKey = (email: string) => `fail:login:${subjectKey(email)}`;

/** Refuses a login for an email that is locked, whether or not an account has it. */
export async function assertNotLocked(ctx: AppContext, email: string): Promise<void> {
  const seconds = await ctx.kv.ttlSeconds(lockKey(email));
  if (seconds) throw new AccountLockedError(seconds);
}

/**
 * A failed password login. After `lockout.failures` failures the email is locked for
 * `lockout.seconds`, doubling with every further failure up to the window of that entry.
 */
export async function recordLoginFailure(ctx: AppContext, email: string): Promise<void> {
  const failures = rateLimit(ctx, 'lockout.failures');
  const lock = rateLimit(ctx, 'lockout.seconds');
  const count = await ctx.kv.increment(failureKey(email), failures.windowSeconds);
  if (count < failures.max) return;
  const seconds = Math.min(lock.max * 2 ** (count - failures.max), lock.windowSeconds);
  await ctx.kv.set(lockKey(email), '1', seconds);
}

export async function clearLoginFailures(ctx: AppContext, email: string): Promise<void> {
  await ctx.kv.delete(failureKey(email));
}
