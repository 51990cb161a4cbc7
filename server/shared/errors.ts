import type { MessageKey, MessageParams } from '../../i18n';

/**
 * What kind of failure an AppError is. The error table in server/http/error-handler.ts is
 * the one place that turns a kind into an HTTP status and an envelope code.
 */
export type ErrorKind =
  | 'badRequest'
  | 'captchaInvalid'
  | 'loginRequired'
  | 'sessionExpired'
  | 'forbidden'
  | 'notFound'
  | 'conflict'
  | 'payloadTooLarge'
  | 'tooManyRequests'
  | 'overloaded'
  | 'gatewayUnavailable'
  | 'storageUnavailable';

/**
 * Failures a client is told about. Each carries its kind and a translatable message key;
 * the HTTP layer turns them into the `{code, msg, data}` envelope in the request's language.
 */
export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly messageKey: MessageKey,
    readonly params?: MessageParams,
  ) {
    super(messageKey);
    this.name = new.target.name;
  }
}

/**
 * Kinds that are the visitor's to act on (wrong input, a state that forbids the move, a
 * busy shop that says when to try again), as opposed to a failure on our side or a
 * provider's: pages show these as a message.
 */
export function isRefusal(kind: ErrorKind): boolean {
  return kind !== 'gatewayUnavailable' && kind !== 'storageUnavailable';
}

export class NotFoundError extends AppError {
  constructor(messageKey: MessageKey = 'error.notFound', params?: MessageParams) {
    super('notFound', messageKey, params);
  }
}

export class BadRequestError extends AppError {
  constructor(messageKey: MessageKey = 'error.badRequest', params?: MessageParams) {
    super('badRequest', messageKey, params);
  }
}

/** No session at all on a login-only endpoint (envelope code 301, SPEC section 8). */
export class LoginRequiredError extends AppError {
  constructor() {
    super('loginRequired', 'error.loginRequired');
  }
}

/** A session that expired or was revoked (envelope code 302, SPEC section 8). */
export class SessionExpiredError extends AppError {
  constructor() {
    super('sessionExpired', 'error.sessionExpired');
  }
}

export class ForbiddenError extends AppError {
  constructor(messageKey: MessageKey = 'error.forbidden') {
    super('forbidden', messageKey);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('tooManyRequests', 'error.tooManyRequests', { seconds: retryAfterSeconds });
  }
}

/**
 * The server has more of this work in hand than it takes at once, and the caller waited its
 * longest turn (server/shared/turns.ts): try again after `retryAfterSeconds`; nothing was done.
 */
export class OverloadedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('overloaded', 'error.overloaded', { seconds: retryAfterSeconds });
  }
}

/**
 * The client closed its connection before its answer (`clientGoneSignal`): work it was waiting
 * for is not started, and nobody reads what is answered. Not an AppError: no buyer sees it.
 */
export class ClientGoneError extends Error {
  constructor() {
    super('the client closed the connection before its answer');
    this.name = 'ClientGoneError';
  }
}

const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08001',
  '08003',
  '08006',
]);

type CausedError = { code?: string; constraint?: string; message?: string; cause?: unknown };

/** An error and its causes, outermost first (drizzle wraps the driver's error in `cause`). */
function* errorChain(error: unknown): Generator<CausedError> {
  for (let current = error as CausedError | undefined, depth = 0; current && depth < 5; depth++) {
    yield current;
    current = current.cause as CausedError | undefined;
  }
}

/** True when an error means "the database is not reachable", as opposed to a bad query. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const current of errorChain(error)) {
    if (current.code && CONNECTION_ERROR_CODES.has(current.code)) return true;
    const message = current.message ?? '';
    if (
      /Connection terminated|connection timeout|Client has encountered a connection error|timeout exceeded when trying to connect|Cannot use a pool after calling end/i.test(
        message,
      )
    ) {
      return true;
    }
  }
  return false;
}

/**
 * PostgreSQL refused a text value it cannot hold: 22021 character_not_in_repertoire (a NUL
 * byte) and 22P05 untranslatable_character. The schemas refuse such text first
 * (server/shared/text.ts); this is the last line for a field they missed.
 */
const UNSTORABLE_TEXT_CODES = new Set(['22021', '22P05']);

export function isUnstorableText(error: unknown): boolean {
  for (const current of errorChain(error)) if (current.code && UNSTORABLE_TEXT_CODES.has(current.code)) return true;
  return false;
}

/**
 * The unique constraint (or index) a failed insert or update ran into (PostgreSQL 23505),
 * or undefined when that is not what happened. Drivers that leave out the constraint field
 * still name it in the message; 'unknown' when neither does.
 */
export function uniqueViolation(error: unknown): string | undefined {
  for (const current of errorChain(error)) {
    if (current.code !== '23505') continue;
    return current.constraint ?? /unique constraint "([^"]+)"/.exec(current.message ?? '')?.[1] ?? 'unknown';
  }
  return undefined;
}

/**
 * The CHECK constraint a write broke (PostgreSQL 23514), or undefined when that is not what
 * happened: a statement that writes several tables refuses through its constraints (stock
 * below zero, a coupon used past its limit) and the caller names the refusal from this.
 */
export function checkViolation(error: unknown): string | undefined {
  for (const current of errorChain(error)) {
    if (current.code !== '23514') continue;
    return current.constraint ?? /check constraint "([^"]+)"/.exec(current.message ?? '')?.[1] ?? 'unknown';
  }
  return undefined;
}
