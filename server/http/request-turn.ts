import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { Turns } from '../shared/turns';
import { clientGoneSignal } from './client-gone';

/**
 * A route's `preValidation` hook: once its body has arrived, the request waits for one of
 * `turnsOf`'s turns before any more of it runs (its session check, its handler), and gives the
 * turn back when the answer has gone or the connection closed (ADR 0184). Under a burst the
 * requests holding a turn finish at full speed while the others wait holding nothing, instead of
 * each request's session check queueing behind every other request's. Not earlier: a client
 * trickling its body would hold a turn for as long as the server waits for it. A request still
 * waiting past the turns' longest wait is answered 503 with Retry-After; one whose client left
 * never starts.
 */
export function requestTakesTurn(turnsOf: (ctx: AppContext) => Turns) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const giveBack = await turnsOf(request.ctx).enter(clientGoneSignal(reply));
    if (reply.raw.closed) giveBack();
    else reply.raw.once('close', giveBack);
  };
}
