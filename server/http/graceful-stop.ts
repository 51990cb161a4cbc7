import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Stops the copy without refusing anyone (docs/decisions/0120-rolling-restarts.md):
     * readiness fails and every answer closes its connection at once, the copy keeps serving
     * for `drainMs` so the balancer takes it out of rotation, then it stops listening, finishes
     * what is in flight and stops the background jobs (`app.close()`).
     */
    stopGracefully(drainMs: number): Promise<void>;
  }
}

/** Whether the copy is stopping, shared by the raw server, the hooks and `/readyz`. */
export interface StopState {
  stopping: boolean;
}

/**
 * Keep-alive sockets left idle after `close()` are closed this often: Fastify closes the idle
 * ones once, when it starts closing, and an answer whose headers went out before the stop (a
 * streamed page) leaves its socket open for the keep-alive timeout (72 s) otherwise.
 */
const IDLE_SWEEP_MS = 100;

/** Marks an answer of a stopping copy so the client or balancer opens its next connection elsewhere. */
export function closeConnectionWhileStopping(state: StopState, res: ServerResponse): void {
  if (state.stopping && !res.headersSent) res.setHeader('connection', 'close');
}

export function registerGracefulStop(app: FastifyInstance, state: StopState): void {
  // Requests already in flight when the stop began finish while it drains: their answers close too.
  app.addHook('onSend', (request, reply, payload, done) => {
    closeConnectionWhileStopping(state, reply.raw);
    done(null, payload);
  });

  let sweep: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    state.stopping = true;
    sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS).unref();
  });
  app.addHook('onClose', async () => clearInterval(sweep));

  app.decorate('stopGracefully', async (drainMs: number) => {
    state.stopping = true;
    await new Promise((resolve) => setTimeout(resolve, drainMs));
    await app.close();
  });
}
