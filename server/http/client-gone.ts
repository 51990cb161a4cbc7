import type { FastifyReply } from 'fastify';
import { ClientGoneError } from '../shared/errors';

/**
 * Aborts, with a `ClientGoneError`, when the connection closes before the answer was sent: a
 * buyer who left (a closed tab, a client's timeout). Work that has not started yet, such as a
 * placement waiting for its turn, then does not start.
 */
export function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const abortUnlessAnswered = () => {
    if (!reply.raw.writableFinished) controller.abort(new ClientGoneError());
  };
  // Gone already (it left while the request waited, e.g. for another request's render): 'close' was emitted before.
  if (reply.raw.closed) abortUnlessAnswered();
  else reply.raw.on('close', abortUnlessAnswered);
  return controller.signal;
}
