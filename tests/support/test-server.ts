import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { ServerBuild } from 'react-router';
import { inject } from 'vitest';
import { buildApp } from '../../server/app';
import { createAppContext } from '../../server/runtime';
import type { AppContext } from '../../server/shared/context';
import { loadEnv } from '../../server/shared/env';
import { createLogger } from '../../server/shared/logger';
import { openDatabase } from '../../server/db/client';
import { openTestDatabase } from './database';

const BUILD_DIR = path.resolve('build');
let storefrontBuild: Promise<ServerBuild> | undefined;

function loadStorefrontBuild(): Promise<ServerBuild> {
  const entry = path.join(BUILD_DIR, 'server', 'index.js');
  if (!fs.existsSync(entry)) throw new Error('No storefront build: run "npm run build" (npm test does it for you).');
  storefrontBuild ??= import(pathToFileURL(entry).href) as Promise<ServerBuild>;
  return storefrontBuild;
}

export interface TestResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  /** Sent as-is (no JSON encoding), for malformed-body tests. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  cookies?: Record<string, string>;
}

export interface TestServer {
  url: string;
  app: FastifyInstance;
  ctx: AppContext;
  databaseUrl?: string;
  request<T = any>(path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  close(): Promise<void>;
}

/**
 * A real shop on a random port with its own database cloned from the seeded template:
 * API tests talk HTTP to it exactly as a client would.
 */
export async function startTestServer(
  envOverrides: Record<string, string | undefined> = {},
  options: { databaseUrl?: string; logTo?: DestinationStream } = {},
): Promise<TestServer> {
  const dataDir = inject('dataDir');
  const runId = inject('runId');
  const database = options.databaseUrl
    ? { handle: await openDatabase({ databaseUrl: options.databaseUrl }), url: options.databaseUrl, drop: async () => {} }
    : await openTestDatabase({ dataDir, runId });
  const env = loadEnv({
    ...process.env,
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SESSION_SECRET: 'test-secret-'.padEnd(40, 'x'),
    REDIS_KEY_PREFIX: `test:${runId}:${process.pid}:${Math.random().toString(36).slice(2)}:`,
    DATABASE_URL: database.url,
    // An in-process server shares its thread with the test runner (fast-check, fixtures), so its
    // event-loop and heap readings measure the runner: load shedding is off unless a test sets it.
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    OVERLOAD_MAX_HEAP_USED_BYTES: '0',
    ...envOverrides,
  });
  const log = createLogger(env, options.logTo);
  const ctx = await createAppContext(env, log, database.handle);
  const build = await loadStorefrontBuild();
  const app = await buildApp({
    appContext: ctx,
    storefront: { mode: 'production', loadBuild: async () => build, clientDir: path.join(BUILD_DIR, 'client') },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  return {
    url,
    app,
    ctx,
    databaseUrl: database.url,
    async request(requestPath, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.cookies) {
        headers.cookie = Object.entries(options.cookies)
          .map(([name, value]) => `${name}=${value}`)
          .join('; ');
      }
      let body: string | Buffer | undefined = options.rawBody;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await fetch(url + requestPath, {
        method: options.method ?? 'GET',
        headers,
        body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body),
        redirect: 'manual',
      });
      const text = await response.text();
      let parsed: unknown = text;
      if (response.headers.get('content-type')?.includes('json')) {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = text;
        }
      }
      return { status: response.status, headers: response.headers, body: parsed as any, text };
    },
    async close() {
      await app.close();
      await ctx.database.close();
      await ctx.kv.close();
      await database.drop();
    },
  };
}
