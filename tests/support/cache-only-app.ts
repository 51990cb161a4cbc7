import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { registerRequestContext } from '../../server/http/request-context';
import { registerResponseCache, serverWithFrontDoor, type FrontDoor } from '../../server/http/response-cache';
import type { AppContext } from '../../server/context';
import { createMemoryStore } from '../../server/shared/kv-store';

/**
 * A Fastify app with only the response cache (a minute's lifetime), its front door and the
 * request context, wired as `buildApp` wires them, for tests of the cache on its own. The test
 * adds its routes and hooks, then `listenLocally`.
 */
export function cacheOnlyApp(): FastifyInstance {
  const appContext = { kv: createMemoryStore(), log: pino({ level: 'silent' }), env: {} } as unknown as AppContext;
  let frontDoor: FrontDoor | undefined;
  const app = Fastify({
    serverFactory: (handler, options) => serverWithFrontDoor(handler, options, () => frontDoor, { stopping: false }),
  });
  frontDoor = registerResponseCache(app, { appContext, ttlSeconds: 60, secureCookies: false, https: false })!.frontDoor;
  registerRequestContext(app, appContext);
  return app;
}

/** Listens on a free port of 127.0.0.1; answers the base address. */
export async function listenLocally(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}
