import { EventEmitter } from 'node:events';
import type { FastifyReply } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ClientGoneError } from '../shared/errors';
import { clientGoneSignal } from './client-gone';

/** The parts of a reply's raw response the signal reads. */
function replyWith(raw: { closed: boolean; writableFinished: boolean }) {
  return { raw: Object.assign(new EventEmitter(), raw) } as unknown as FastifyReply & { raw: EventEmitter };
}

describe('clientGoneSignal', () => {
  it('aborts when the connection closes before the answer was sent, not after', () => {
    const leaving = replyWith({ closed: false, writableFinished: false });
    const signal = clientGoneSignal(leaving);
    expect(signal.aborted).toBe(false);
    leaving.raw.emit('close');
    expect(signal.reason).toBeInstanceOf(ClientGoneError);

    const answered = replyWith({ closed: false, writableFinished: true });
    const kept = clientGoneSignal(answered);
    answered.raw.emit('close');
    expect(kept.aborted).toBe(false);
  });

  it('is aborted from the start for a client that left before it was asked for', () => {
    const signal = clientGoneSignal(replyWith({ closed: true, writableFinished: false }));
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBeInstanceOf(ClientGoneError);
  });
});
