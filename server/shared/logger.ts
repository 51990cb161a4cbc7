import pino, { type Logger } from 'pino';
import type { Env } from './env';

/** Fields that carry credentials: never logged, whatever their value. */
const SECRET_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers.token',
  'req.headers.sign',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  'res.headers["refresh-token"]',
  'res.headers["refresh-sign"]',
  '*.password',
  '*.old_password',
  '*.new_password',
  '*.access_token',
  '*.access_sign',
  '*.token',
  '*.sign',
  '*.id_token',
  '*.refresh_token',
  '*.code',
  '*.dots',
  '*.cookie',
  // Request bodies hold addresses, notes and passwords; nothing logs one on purpose.
  'body',
  'req.body',
  '*.body',
];

/** Fields that name a person: logged masked, so a line can still be matched to a report. */
const PERSONAL_PATHS = ['email', 'to', 'mobile', 'phone', '*.email', '*.to', '*.mobile', '*.phone'];

export const REDACTED_PATHS = [...SECRET_PATHS, ...PERSONAL_PATHS];

// `%40` too: addresses typed into a query string arrive percent-encoded.
const EMAIL = /([\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]*?(@|%40)([\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+)/gu;

/** `a***@example.com` wherever an address appears in a text: enough to recognise, not to contact. */
export function maskEmails(text: string): string {
  return text.replace(EMAIL, (_match, first: string, at: string, domain: string) => `${first}***${at}${domain}`);
}

/** `138****5678`. Only fields named as phones are masked so: order numbers look alike. */
export function maskPhone(text: string): string {
  const digits = text.replace(/[^\d+]/g, '');
  return digits.length > 6 ? `${digits.slice(0, 3)}****${digits.slice(-4)}` : '****';
}

function maskField(field: string, value: unknown): unknown {
  if (typeof value !== 'string')
    return Array.isArray(value) ? value.map((item) => maskField(field, item)) : '[redacted]';
  return field === 'mobile' || field === 'phone' ? maskPhone(value) : maskEmails(value);
}

function censor(value: unknown, path: string[]): unknown {
  const field = path.at(-1) ?? '';
  return PERSONAL_PATHS.includes(field) ? maskField(field, value) : '[redacted]';
}

// Database drivers put the values of a failed query in these; drizzle also copies them into its message.
const VALUE_BEARING_ERROR_FIELDS = new Set(['params', 'parameters', 'detail']);

/**
 * Errors keep their type, code, message and stack, but never the values of the query that
 * failed (drizzle's "params: …" line, PostgreSQL's `detail` such as "Key (email)=(…)"),
 * and any address or phone number left in a message is masked.
 */
function sanitizeError(serialized: Record<string, unknown>, depth = 0): Record<string, unknown> {
  const clean: Record<string, unknown> = {};
  const quotesValues = isDataException(serialized.code);
  for (const [key, value] of Object.entries(serialized)) {
    if (VALUE_BEARING_ERROR_FIELDS.has(key)) continue;
    if (typeof value === 'string')
      clean[key] = maskEmails(key === 'message' || key === 'stack' ? withoutValues(value, quotesValues) : value);
    else if (value && typeof value === 'object' && depth < 5)
      clean[key] = sanitizeError(value as Record<string, unknown>, depth + 1);
    else clean[key] = value;
  }
  return clean;
}

/** SQLSTATE class 22 ("data exception"): PostgreSQL quotes the offending value in the message. */
function isDataException(code: unknown): boolean {
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}

function withoutValues(text: string, quotesValues: boolean): string {
  const withoutParams = text.replace(/\nparams: [^\n]*/g, '\nparams: [redacted]');
  return quotesValues ? withoutParams.replace(/"[^"\n]*"/g, '"[redacted]"') : withoutParams;
}

function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  return sanitizeError(pino.stdSerializers.errWithCause(error) as unknown as Record<string, unknown>);
}

interface LoggedRequest {
  method?: string;
  url?: string;
  ip?: string;
  headers?: Record<string, unknown>;
  socket?: { remotePort?: number };
}

/**
 * The console's setup and invitation links are checked with their token in the path
 * (`GET /v1/admin/setup/:token`); the token is a credential, so request lines never show it.
 */
const LINK_TOKEN_IN_PATH = /(\/admin\/(?:setup|invitations)\/)(?!accept(?:[/?#]|$))[^/?#]+/;

/** What a request line says: no headers, no body; an address typed into a query string is masked. */
function serializeRequest(request: LoggedRequest) {
  return {
    method: request.method,
    url:
      typeof request.url === 'string' ? maskEmails(request.url).replace(LINK_TOKEN_IN_PATH, '$1[redacted]') : undefined,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Fields every line starts with. */
const LINE_BASE = { service: 'shop' };

export function createLogger(env: Pick<Env, 'LOG_LEVEL' | 'NODE_ENV'>, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: env.LOG_LEVEL,
    redact: { paths: REDACTED_PATHS, censor },
    serializers: { err: serializeError, error: serializeError, req: serializeRequest },
    base: LINE_BASE,
  };
  if (destination) {
    const logger = pino(options, destination);
    outputs.set(logger, destination);
    return logger;
  }
  // Written asynchronously: a synchronous write per line held the event loop as long as the
  // request it described (docs/benchmarks.md, issue 13). Exits go through exitOnceLogged.
  const standardOutput = pino.destination({ dest: 1, sync: false });
  const logger = pino(options, standardOutput);
  asynchronousOutputs.set(logger, standardOutput);
  outputs.set(logger, standardOutput);
  return logger;
}

/** Where each logger made by createLogger writes. */
const outputs = new WeakMap<Logger, pino.DestinationStream>();

/**
 * The logger's twin for the one line per request (server/http/request-log.ts): the same output,
 * level and serializers, without the redaction pass. That line holds only what the `req`
 * serializer keeps (method, masked path, address) and the status and time, so none of the
 * redacted paths can occur in it, and the pass cost about 6% of the CPU of every request the
 * cache does not answer (docs/benchmarks.md, 2026-11-27 night).
 */
export function requestLineLogger(log: Logger): Logger | undefined {
  const output = outputs.get(log);
  if (!output) return undefined;
  return pino({ level: log.level, serializers: { req: serializeRequest }, base: LINE_BASE }, output);
}

const asynchronousOutputs = new WeakMap<Logger, ReturnType<typeof pino.destination>>();
const EXIT_WRITE_LIMIT_MS = 3_000;

/**
 * Ends the process once every line logged so far is written, in order. `process.exit` right
 * after a log call can lose that line, or write it ahead of one still in flight on the
 * asynchronous output (seen with the fatal line of a crash). A stdout that cannot be written
 * never keeps the process up for more than three seconds.
 */
export function exitOnceLogged(log: Logger, code: number): void {
  const output = asynchronousOutputs.get(log);
  if (!output) process.exit(code);
  setTimeout(() => process.exit(code), EXIT_WRITE_LIMIT_MS);
  output.once('close', () => process.exit(code));
  output.end();
}
