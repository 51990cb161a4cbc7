import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import type { StopState } from '../graceful-stop';
import { OVERLOAD_RETRY_AFTER_SECONDS } from '../load-shedding';

const READINESS_TIMEOUT_MS = 2_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms).unref()),
  ]);
}

/**
 * Liveness says the process answers, and whether it is shedding load (503 `overloaded`, so a
 * balancer can send traffic elsewhere); readiness says its database and shared store answer,
 * and fails from the moment the copy is told to stop, while it still serves (ADR 0120).
 * Neither is shed (server/http/load-shedding.ts).
 */
export async function healthRoutes(
  app: FastifyInstance,
  options: { appContext: AppContext; stop: StopState },
): Promise<void> {
  const { appContext, stop } = options;
  app.get('/healthz', { schema: { hide: true } }, async (request, reply) => {
    if (!app.isUnderPressure()) return { status: 'ok' };
    reply.status(503).header('retry-after', String(OVERLOAD_RETRY_AFTER_SECONDS));
    return { status: 'overloaded' };
  });

  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    if (stop.stopping) {
      reply.status(503);
      return { status: 'stopping' };
    }
    const checks = await Promise.all([
      withTimeout(appContext.database.ping(), READINESS_TIMEOUT_MS).then(
        () => ['database', 'ok'] as const,
        (error: Error) => {
          request.log.warn({ err: error }, 'readiness: database unreachable');
          return ['database', 'unavailable'] as const;
        },
      ),
      withTimeout(appContext.kv.ping(), READINESS_TIMEOUT_MS).then(
        () => [appContext.kv.kind === 'redis' ? 'redis' : 'state', 'ok'] as const,
        () => [appContext.kv.kind === 'redis' ? 'redis' : 'state', 'unavailable'] as const,
      ),
    ]);
    const ready = checks.every(([, state]) => state === 'ok');
    reply.status(ready ? 200 : 503);
    return { status: ready ? 'ready' : 'unavailable', checks: Object.fromEntries(checks) };
  });
}
