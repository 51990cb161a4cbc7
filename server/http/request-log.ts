import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

/**
 * One line per request, when it is answered: method, path (addresses masked by the logger's
 * serializer), status and time. Fastify's own controller writes two (incoming and completed),
 * which doubled the cost of the log for every request the cache does not answer; its other
 * lines (errors, streams, timeouts) stay as they are. Cache hits answered at the front door
 * are tallied instead (response-cache.ts). docs/decisions/0091.
 */
export class OneLineRequestLog extends LogController {
  /** `lines`: the logger without redaction that writes the completed lines (logger.ts requestLineLogger). */
  constructor(private readonly lines?: Logger) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      req: request,
      res: { statusCode: reply.statusCode },
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
    };
    // An error may carry anything, so its line goes through the redacting request logger.
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (this.lines) this.lines.info({ reqId: request.id, ...line }, 'request completed');
    else reply.log.info(line, 'request completed');
  }
}
