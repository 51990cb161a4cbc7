import type { FastifyRequest } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
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
    expect(mapError(abortedError(), request, 1024)).toEqual({ status: 400, code: 400, msg: 'The request could not be understood' });
    expect(log.error).not.toHaveBeenCalled();
    expect(log.info).toHaveBeenCalledWith('request aborted before its body arrived');
  });

  it('still reads a connection reset on a live request as the database being unreachable', () => {
    const { request, log } = requestWith(false);
    expect(mapError(abortedError(), request, 1024)).toMatchObject({ status: 503, code: 503, headers: { 'retry-after': '5' } });
    expect(log.error).toHaveBeenCalledTimes(1);
  });
});
