import type { FastifyRequest } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { IllegalTransitionError } from '../domains/orders/order-state';
import { CaptchaInvalidError } from '../domains/captcha/captcha.service';
import { GatewayUnavailableError } from '../domains/payments/payments.service';
import {
  ClientGoneError,
  LoginRequiredError,
  NotFoundError,
  SessionExpiredError,
  TooManyRequestsError,
} from '../shared/errors';
import { mapError } from './error-handler';

/** What Node raises on a request whose connection closed before its body was complete. */
function abortedError(): Error {
  return Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
}

function requestWith(destroyed: boolean) {
  const log = { info: vi.fn(), error: vi.fn() };
  const request = { raw: { destroyed }, log, ctx: { locale: 'en' }, headers: {} } as unknown as FastifyRequest;
  return { request, log };
}

describe('mapError', () => {
  it('treats a request cut off mid-body as the client leaving: 400, logged as info, not a database failure', () => {
    const { request, log } = requestWith(true);
    expect(mapError(abortedError(), request, 1024)).toEqual({
      status: 400,
      code: 400,
      msg: 'The request could not be understood',
    });
    expect(log.error).not.toHaveBeenCalled();
    expect(log.info).toHaveBeenCalledWith('request aborted before its body arrived');
  });

  it('answers a buyer who left while their placement waited for its turn with 400, logged as info', () => {
    const { request, log } = requestWith(true);
    expect(mapError(new ClientGoneError(), request, 1024)).toEqual({
      status: 400,
      code: 400,
      msg: 'The request could not be understood',
    });
    expect(log.error).not.toHaveBeenCalled();
    expect(log.info).toHaveBeenCalledWith('the client left before its answer; what it waited for was not started');
  });

  it('still reads a connection reset on a live request as the database being unreachable', () => {
    const { request, log } = requestWith(false);
    expect(mapError(abortedError(), request, 1024)).toMatchObject({
      status: 503,
      code: 503,
      headers: { 'retry-after': '5' },
    });
    expect(log.error).toHaveBeenCalledTimes(1);
  });
});

describe('the error table', () => {
  const { request } = requestWith(false);
  const answer = (error: Error) => {
    const { status, code, headers } = mapError(error, request, 1024);
    return { status, code, headers };
  };

  it('gives each kind of AppError its status and envelope code (SPEC section 8: 301 and 302 for sessions)', () => {
    expect(answer(new NotFoundError())).toEqual({ status: 404, code: 404, headers: undefined });
    expect(answer(new LoginRequiredError())).toEqual({ status: 401, code: 301, headers: undefined });
    expect(answer(new SessionExpiredError())).toEqual({ status: 401, code: 302, headers: undefined });
    expect(answer(new CaptchaInvalidError())).toEqual({ status: 400, code: 4001, headers: undefined });
    expect(answer(new IllegalTransitionError('order.cannotCancel'))).toEqual({
      status: 409,
      code: 409,
      headers: undefined,
    });
    expect(answer(new GatewayUnavailableError())).toEqual({ status: 502, code: 502, headers: undefined });
  });

  it('sends Retry-After with a refusal that says when to come back', () => {
    expect(answer(new TooManyRequestsError(42))).toEqual({ status: 429, code: 429, headers: { 'retry-after': '42' } });
  });
});
