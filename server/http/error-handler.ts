import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { translate } from '../../i18n';
import { AppError, ClientGoneError, isDatabaseUnavailable, isUnstorableText } from '../shared/errors';
import { ERROR_ANSWERS, failure } from './envelope';
import { requestLocale } from './request-context';
import { describeIssue } from '../shared/issue-messages';
import { RequestValidationError } from './validation';
import { pathWithoutQuery } from '../shared/url-path';

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`;
}

interface Mapped {
  status: number;
  code: number;
  msg: string;
  headers?: Record<string, string>;
}

/**
 * The one table from "what went wrong" to HTTP status, envelope code and message.
 * Anything not listed is a bug: logged with its stack, answered as a bare 500.
 */
export function mapError(error: FastifyError | Error, request: FastifyRequest, bodyLimit: number): Mapped {
  const locale = request.ctx?.locale ?? requestLocale(request);
  if (error instanceof AppError) {
    const headers = 'retryAfterSeconds' in error ? { 'retry-after': String(error.retryAfterSeconds) } : undefined;
    return {
      ...ERROR_ANSWERS[error.kind],
      msg: translate(locale, error.messageKey, error.params),
      headers,
    };
  }
  if (error instanceof RequestValidationError) {
    return { status: 400, code: 400, msg: describeIssue(locale, error.issues[0]!, error.part) };
  }
  const code = (error as FastifyError).code;
  const statusCode = (error as FastifyError).statusCode;
  switch (code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, code: 400, msg: translate(locale, 'error.malformedJson') };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        status: 413,
        code: 413,
        msg: translate(locale, 'error.bodyTooLarge', { limit: formatBytes(bodyLimit) }),
      };
    case 'FST_ERR_BAD_URL':
      return { status: 400, code: 400, msg: translate(locale, 'error.malformedUrl') };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        status: 415,
        code: 415,
        msg: translate(locale, 'error.unsupportedMediaType', { type: String(request.headers['content-type'] ?? '') }),
      };
  }
  if (statusCode === 429) {
    const seconds = Number((error as { retryAfterSeconds?: number }).retryAfterSeconds ?? 60);
    return { status: 429, code: 429, msg: translate(locale, 'error.tooManyRequests', { seconds }) };
  }
  // The connection closed before the request was complete (a slow client cut at a deadline,
  // or one that left): nobody reads this answer, and it is not the database's doing.
  if (code === 'ECONNRESET' && request.raw.destroyed) {
    request.log.info('request aborted before its body arrived');
    return { status: 400, code: 400, msg: translate(locale, 'error.badRequest') };
  }
  if (error instanceof ClientGoneError) {
    request.log.info('the client left before its answer; what it waited for was not started');
    return { status: 400, code: 400, msg: translate(locale, 'error.badRequest') };
  }
  if (isDatabaseUnavailable(error)) {
    request.log.error({ err: error }, 'database unavailable');
    return {
      status: 503,
      code: 503,
      msg: translate(locale, 'error.serviceUnavailable'),
      headers: { 'retry-after': '5' },
    };
  }
  if (isUnstorableText(error)) {
    // Worth a look: some schema lets such text through (no values logged, they may be personal).
    request.log.warn({ route: request.routeOptions.url }, 'text the database cannot store reached it');
    return { status: 400, code: 400, msg: translate(locale, 'error.unstorableText') };
  }
  if (statusCode && statusCode >= 400 && statusCode < 500) {
    return { status: statusCode, code: statusCode, msg: translate(locale, 'error.badRequest') };
  }
  request.log.error({ err: error }, 'unhandled error');
  return { status: 500, code: 500, msg: translate(locale, 'error.internal') };
}

export function isApiRequest(request: FastifyRequest): boolean {
  return request.url.startsWith('/v1/') || request.url === '/v1' || request.url.startsWith('/v2/');
}

function answerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply, bodyLimit: number) {
  const mapped = mapError(error, request, bodyLimit);
  if (mapped.headers) reply.headers(mapped.headers);
  reply.status(mapped.status);
  if (isApiRequest(request)) return reply.send(failure(mapped.code, mapped.msg));
  return reply.type('text/plain; charset=utf-8').send(mapped.msg);
}

/**
 * Fastify's own refusals before any route or hook runs (a malformed `%` in the path): the
 * same table and envelope as every other error. Set as the `frameworkErrors` option.
 */
export function answerFrameworkError(options: { bodyLimit: number }) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    void answerError(error, request, reply, options.bodyLimit);
  };
}

export function registerErrorHandling(app: FastifyInstance, options: { bodyLimit: number }): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
    answerError(error, request, reply, options.bodyLimit),
  );

  app.setNotFoundHandler((request, reply) => {
    const locale = request.ctx?.locale ?? requestLocale(request);
    const path = pathWithoutQuery(request.url);
    reply.status(404).send(failure(404, translate(locale, 'error.routeNotFound', { path })));
  });
}
