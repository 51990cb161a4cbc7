import type { MessageKey, MessageParams } from '../../i18n';

/**
 * Errors a client can act on. Each carries a translatable message key; the HTTP layer
 * turns it into the `{code, msg, data}` envelope in the request's language.
 */
export class AppError extends Error {
  constructor(
    readonly messageKey: MessageKey,
    readonly httpStatus: number,
    /** The envelope `code`; SPEC section 8 gives 301/302 a meaning of their own. */
    readonly envelopeCode: number = httpStatus,
    readonly params?: MessageParams,
  ) {
    super(messageKey);
    this.name = new.target.name;
  }
}

export class NotFoundError extends AppError {
  constructor(messageKey: MessageKey = 'error.notFound', params?: MessageParams) {
    super(messageKey, 404, 404, params);
  }
}

export class BadRequestError extends AppError {
  constructor(messageKey: MessageKey = 'error.badRequest', params?: MessageParams) {
    super(messageKey, 400, 400, params);
  }
}

/** No session at all on a login-only endpoint: envelope code 301. */
export class LoginRequiredError extends AppError {
  constructor() {
    super('error.loginRequired', 401, 301);
  }
}

/** A session that expired or was revoked: envelope code 302. */
export class SessionExpiredError extends AppError {
  constructor() {
    super('error.sessionExpired', 401, 302);
  }
}

export class ForbiddenError extends AppError {
  constructor(messageKey: MessageKey = 'error.forbidden') {
    super(messageKey, 403, 403);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('error.tooManyRequests', 429, 429, { seconds: retryAfterSeconds });
  }
}

/** The database (or another backing service) cannot be reached right now. */
export class ServiceUnavailableError extends AppError {
  constructor() {
    super('error.serviceUnavailable', 503, 503);
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

type CausedError = { code?: string; message?: string; cause?: unknown };

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
