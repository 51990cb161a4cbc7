import { createHash } from 'node:crypto';
import { TooManyRequestsError } from './errors';
import type { AppContext } from '../context';

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
  'sendCode.ip': { max: 10, windowSeconds: 600 },
  'sendCode.email': { max: 5, windowSeconds: 3600 },
  'loginByCode.ip': { max: 30, windowSeconds: 600 },
  /** Counted per email and client address together (email-codes.service.ts). */
  'loginByCode.email': { max: 10, windowSeconds: 600 },
  'platform.ip': { max: 30, windowSeconds: 600 },
  /** One buyer's upload allowance: images stored, and their bytes after re-encoding (server/domains/uploads/upload-quota.ts). */
  'upload.quota.images': { max: 50, windowSeconds: 86_400 },
  'upload.quota.bytes': { max: 50 * 1024 * 1024, windowSeconds: 86_400 },
  'upload.user': { max: 30, windowSeconds: 600 },
  /** After-sale requests and appeals a buyer may send; a real buyer sends a handful in a month. */
  'afterSale.user': { max: 20, windowSeconds: 3600 },
  /** Failed sign-ins of one client on one account before that client is locked out of it (login-throttle.ts). */
  'login.failures.client': { max: 5, windowSeconds: 3600 },
  /** Failed sign-ins of one account from all clients before clients it does not know are slowed. */
  'login.failures.account': { max: 20, windowSeconds: 3600 },
  /** Console sign-in by one address, across accounts (server/domains/staff/sign-in.service.ts). */
  'staffLogin.ip': { max: 30, windowSeconds: 600 },
  /** Second-step codes sent by one address; each challenge also dies after a few wrong codes. */
  'staffSecondFactor.ip': { max: 30, windowSeconds: 600 },
  /** First-start setup and invitation links opened or used by one address. */
  'staffLink.ip': { max: 30, windowSeconds: 600 },
  /** Codes checked for one signed-in member (enrolment, recovery codes, turning two-step off). */
  'staffCode.member': { max: 10, windowSeconds: 600 },
} as const satisfies Record<string, RateLimit>;

export type RateLimitName = keyof typeof DEFAULT_RATE_LIMITS;

/**
 * Waits rather than counts (login-throttle.ts): a wait starts at `firstSeconds` and doubles with
 * each further failure, up to `longestSeconds`. Overridden in RATE_LIMITS the same way, as
 * `name=first/longest` (e.g. `login.lock.seconds=30/900`).
 */
export const DEFAULT_WAITS = {
  /** How long a client that failed too often on one account is locked out of it. */
  'login.lock.seconds': { firstSeconds: 30, longestSeconds: 900 },
  /** While an account is slowed, how long a client it does not know waits between tries; this wait does not grow, only `firstSeconds` is used. */
  'login.slow.seconds': { firstSeconds: 10, longestSeconds: 10 },
} as const satisfies Record<string, Wait>;

export type WaitName = keyof typeof DEFAULT_WAITS;

export interface Wait {
  firstSeconds: number;
  longestSeconds: number;
}

export interface RateLimit {
  max: number;
  windowSeconds: number;
}

let parsed: { source: string; limits: Record<string, RateLimit>; waits: Record<string, Wait> } | undefined;

/** The RATE_LIMITS overrides (`name=a/b,...`) over the defaults, parsed once per distinct value. */
function effectiveLimits(ctx: AppContext): NonNullable<typeof parsed> {
  const source = ctx.env.RATE_LIMITS ?? '';
  if (parsed?.source !== source) {
    const limits: Record<string, RateLimit> = { ...DEFAULT_RATE_LIMITS };
    const waits: Record<string, Wait> = { ...DEFAULT_WAITS };
    for (const pair of source.split(',')) {
      const match = /^\s*([\w.]+)=(\d+)\/(\d+)\s*$/.exec(pair);
      if (!match) continue;
      const [, name = '', first, second] = match;
      if (name in DEFAULT_RATE_LIMITS) limits[name] = { max: Number(first), windowSeconds: Number(second) };
      if (name in DEFAULT_WAITS) waits[name] = { firstSeconds: Number(first), longestSeconds: Number(second) };
    }
    parsed = { source, limits, waits };
  }
  return parsed;
}

export function rateLimit(ctx: AppContext, name: RateLimitName): RateLimit {
  return effectiveLimits(ctx).limits[name] ?? DEFAULT_RATE_LIMITS[name];
}

export function waitOf(ctx: AppContext, name: WaitName): Wait {
  return effectiveLimits(ctx).waits[name] ?? DEFAULT_WAITS[name];
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
