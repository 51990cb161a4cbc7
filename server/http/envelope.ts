import { z } from 'zod';
import type { ErrorKind } from '../shared/errors';

/** SPEC section 8: every API answer is `{code, msg, data}`; code 200 is success. */
export interface Envelope<T> {
  code: 200 | (number & {});
  msg: string;
  data: T;
}

export function ok<T>(data: T, msg = 'ok'): { code: 200; msg: string; data: T } {
  return { code: 200, msg, data };
}

export function failure(code: number, msg: string): Envelope<null> {
  return { code, msg, data: null };
}

/**
 * Each kind of AppError as HTTP status and envelope code: the only place that decides them.
 * SPEC section 8 gives envelope codes 301/302 to a missing and an expired session; a wrong
 * captcha answers 4001 so clients can show the captcha again.
 */
export const ERROR_ANSWERS: Record<ErrorKind, { status: number; code: number }> = {
  badRequest: { status: 400, code: 400 },
  captchaInvalid: { status: 400, code: 4001 },
  loginRequired: { status: 401, code: 301 },
  sessionExpired: { status: 401, code: 302 },
  forbidden: { status: 403, code: 403 },
  notFound: { status: 404, code: 404 },
  conflict: { status: 409, code: 409 },
  payloadTooLarge: { status: 413, code: 413 },
  tooManyRequests: { status: 429, code: 429 },
  overloaded: { status: 503, code: 503 },
  gatewayUnavailable: { status: 502, code: 502 },
  storageUnavailable: { status: 503, code: 503 },
};

/** Response schema of a successful call, for serialization and the OpenAPI document. */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({ code: z.literal(200), msg: z.string(), data });
}

/** The envelope of a failed call: `msg` says what went wrong in the request's language, `data` is null. */
function errorEnvelope(codes: readonly [number, ...number[]], description: string) {
  return z.object({ code: z.literal(codes), msg: z.string(), data: z.null() }).describe(description);
}

/**
 * The ways a call can fail, each with its HTTP status and the envelope codes it carries
 * (SPEC section 8). Every status must list every code the error table (error-handler.ts)
 * can give it on that route: the schema also serializes the answer.
 */
const FAILURES = {
  invalid: {
    status: 400,
    codes: [400],
    text: 'A field is missing or breaks a rule (`msg` names it), or the body is not valid JSON',
  },
  captcha: {
    status: 400,
    codes: [ERROR_ANSWERS.captchaInvalid.code],
    text: `Code ${ERROR_ANSWERS.captchaInvalid.code}: the captcha answer is wrong or used up`,
  },
  login: {
    status: ERROR_ANSWERS.loginRequired.status,
    codes: [ERROR_ANSWERS.loginRequired.code, ERROR_ANSWERS.sessionExpired.code],
    text: 'Code 301: no session; code 302: the session expired or was revoked',
  },
  forbidden: {
    status: 403,
    codes: [403],
    text: 'The signed-in staff member lacks the permission this call needs (or must set up two-step sign-in first)',
  },
  csrf: { status: 403, codes: [403], text: 'A cookie session did not echo the csrf_token cookie in x-csrf-token' },
  notFound: { status: 404, codes: [404], text: 'No such resource (or not yours)' },
  conflict: { status: 409, codes: [409], text: 'The resource is not in a state that allows this' },
  tooLarge: { status: 413, codes: [413], text: 'The request body is over the size limit' },
  mediaType: { status: 415, codes: [415], text: 'The content type is not accepted' },
  tooMany: { status: 429, codes: [429], text: 'Too many attempts; Retry-After says when to try again' },
  internal: { status: 500, codes: [500], text: 'A server fault (nothing internal is shown)' },
  gateway: { status: 502, codes: [502], text: 'The payment gateway did not answer; nothing was charged' },
  unavailable: {
    status: 503,
    codes: [503],
    text: 'The database is unreachable, the file store refused a write, or the server is shedding load; Retry-After',
  },
  busy: {
    status: 503,
    codes: [503],
    text: 'More orders are in hand than the server places at once, and this one waited its longest turn; nothing was done; Retry-After',
  },
} as const satisfies Record<string, { status: number; codes: readonly [number, ...number[]]; text: string }>;

type FailureName = keyof typeof FAILURES;

/** What every write can fail with before its handler runs: a malformed, oversized or foreign body, a missing CSRF echo. */
const WRITE_FAILURES = ['invalid', 'csrf', 'tooLarge', 'mediaType'] as const satisfies FailureName[];
/** What any call can fail with. */
const ALWAYS = ['internal', 'unavailable'] as const satisfies FailureName[];

type Failure = FailureName | 'write';

/** Error answers of a route, by status, for serialization and the OpenAPI document. */
export function failures(...names: Failure[]): Record<number, ReturnType<typeof errorEnvelope>> {
  const wanted = new Set<FailureName>([
    ...names.flatMap((name) => (name === 'write' ? WRITE_FAILURES : [name])),
    ...ALWAYS,
  ]);
  const byStatus = new Map<number, Array<(typeof FAILURES)[FailureName]>>();
  for (const name of wanted) {
    const failure = FAILURES[name];
    byStatus.set(failure.status, [...(byStatus.get(failure.status) ?? []), failure]);
  }
  const responses: Record<number, ReturnType<typeof errorEnvelope>> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const codes = list.flatMap((failure) => failure.codes) as unknown as [number, ...number[]];
    responses[status] = errorEnvelope(codes, list.map((failure) => failure.text).join('; '));
  }
  return responses;
}

/**
 * A route's `response` schema: the success envelope around `data` and the error envelopes
 * of the failures it names (internal faults and 503 are added to every route).
 */
export function answers<T extends z.ZodType>(data: T, ...names: Failure[]) {
  return { 200: envelopeOf(data), ...failures(...names) };
}
