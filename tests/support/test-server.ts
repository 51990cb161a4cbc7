import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { DestinationStream } from 'pino';
import type { ServerBuild } from 'react-router';
import { inject } from 'vitest';
import { buildApp } from '../../server/app';
import { createAppContext } from '../../server/runtime';
import type { AppContext } from '../../server/context';
import { loadEnv } from '../../server/shared/env';
import { createLogger } from '../../server/shared/logger';
import { openDatabase } from '../../server/db/client';
import { openTestDatabase } from './database';
import { forTheScope } from './scope';

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

/** A shop the tests talk to: its Fastify app, its context and its own database. */
export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  databaseUrl?: string;
  request<T = any>(path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  close(): Promise<void>;
}

export interface TestServer extends TestApp {
  url: string;
}

interface TestAppOptions {
  /** An existing database (another test server's), instead of a clone of the seeded template. */
  databaseUrl?: string;
  logTo?: DestinationStream;
}

/** The context a test shop runs on: the test settings over `envOverrides`, and its own database. */
async function createTestContext(envOverrides: Record<string, string | undefined>, options: TestAppOptions) {
  const dataDir = inject('dataDir');
  const runId = inject('runId');
  const settings = loadEnv({
    ...process.env,
    ...inject('s3Env'),
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SESSION_SECRET: 'test-secret-'.padEnd(40, 'x'),
    REDIS_KEY_PREFIX: `test:${runId}:${process.pid}:${Math.random().toString(36).slice(2)}:`,
    DATABASE_URL: undefined,
    // An in-process server shares its thread with the test runner (fast-check, fixtures), so its
    // event-loop and heap readings measure the runner: load shedding is off unless a test sets it.
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    OVERLOAD_MAX_HEAP_USED_BYTES: '0',
    ...envOverrides,
  });
  // The pool gets the size the settings give, as the shop's runtime opens it: a test asking for
  // one connection gets one. The test database's URL is known only once it is cloned.
  const poolMax = settings.DATABASE_POOL_MAX;
  const database = options.databaseUrl
    ? {
        handle: await openDatabase({ databaseUrl: options.databaseUrl, poolMax }),
        url: options.databaseUrl,
        drop: async () => {},
      }
    : await openTestDatabase({ dataDir, runId, poolMax });
  const env = { ...settings, DATABASE_URL: database.url };
  const log = createLogger(env, options.logTo);
  const ctx = await createAppContext(env, log, database.handle);
  return {
    ctx,
    databaseUrl: database.url,
    async close(app: FastifyInstance) {
      await app.close();
      await ctx.database.close();
      await ctx.kv.close();
      await database.drop();
    },
  };
}

/** The JSON body of an answer that says it is JSON, else its text. */
function parsedBody(contentType: string | null, text: string): any {
  if (!contentType?.includes('json')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The headers and body a request sends for `options`: cookies joined, a JSON body encoded. */
function requestParts(options: RequestOptions): { headers: Record<string, string>; body?: string | Buffer } {
  const headers: Record<string, string> = { ...options.headers };
  if (options.cookies) {
    headers.cookie = Object.entries(options.cookies)
      .map(([name, value]) => `${name}=${value}`)
      .join('; ');
  }
  if (options.body === undefined) return { headers, body: options.rawBody };
  headers['content-type'] ??= 'application/json';
  return { headers, body: JSON.stringify(options.body) };
}

/**
 * A real shop on a random port with its own database cloned from the seeded template:
 * tests talk HTTP to it exactly as a client would. It serves the storefront's production build.
 * For the API alone, `startTestApp` is lighter.
 */
export async function startTestServer(
  envOverrides: Record<string, string | undefined> = {},
  options: TestAppOptions = {},
): Promise<TestServer> {
  const shop = await createTestContext(envOverrides, options);
  const build = await loadStorefrontBuild();
  const app = await buildApp({
    appContext: shop.ctx,
    storefront: { mode: 'production', loadBuild: async () => build, clientDir: path.join(BUILD_DIR, 'client') },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  return {
    url,
    app,
    ctx: shop.ctx,
    databaseUrl: shop.databaseUrl,
    async request(requestPath, options = {}) {
      const { headers, body } = requestParts(options);
      const response = await fetch(url + requestPath, {
        method: options.method ?? 'GET',
        headers,
        body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body),
        redirect: 'manual',
      });
      const text = await response.text();
      return {
        status: response.status,
        headers: response.headers,
        body: parsedBody(response.headers.get('content-type'), text),
        text,
      };
    },
    close: () => shop.close(app),
  };
}

/**
 * The API built in this process and answered through Fastify's `inject`: the same app, hooks and
 * database as `startTestServer`, without a port, a socket or the storefront build. Not for what
 * needs a real connection: cookies across origins, the front-door response cache, slow clients,
 * load shedding, signals, pages.
 */
export async function startTestApp(
  envOverrides: Record<string, string | undefined> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  const shop = await createTestContext(envOverrides, options);
  const app = await buildApp({ appContext: shop.ctx });
  await app.ready();

  return {
    app,
    ctx: shop.ctx,
    databaseUrl: shop.databaseUrl,
    async request(requestPath, options = {}) {
      const { headers, body } = requestParts(options);
      const response = await app.inject({
        method: (options.method ?? 'GET') as InjectOptions['method'],
        url: requestPath,
        headers,
        payload: body,
      });
      const answerHeaders = new Headers();
      for (const [name, value] of Object.entries(response.headers)) {
        for (const one of [value ?? []].flat()) answerHeaders.append(name, String(one));
      }
      return {
        status: response.statusCode,
        headers: answerHeaders,
        body: parsedBody(answerHeaders.get('content-type'), response.body),
        text: response.body,
      };
    },
    close: () => shop.close(app),
  };
}

/** A shop for the tests of the current scope, through a stand-in made at once. */
function shopForTheScope<T extends TestApp>(start: () => Promise<T>): T {
  const current = forTheScope('the test shop', start);
  const stand: TestServer = {
    get app() {
      return current().app;
    },
    get ctx() {
      return current().ctx;
    },
    get databaseUrl() {
      return current().databaseUrl;
    },
    get url() {
      const { url } = current() as Partial<TestServer>;
      if (url === undefined) throw new Error('an in-process test app has no address: use useTestServer');
      return url;
    },
    request: (path, options) => current().request(path, options),
    close: () => current().close(),
  };
  return stand as unknown as T;
}

/** Server settings, or a function giving them once the `beforeAll` hooks before this one have run. */
type EnvOverrides = Record<string, string | undefined> | (() => Record<string, string | undefined>);

const settingsOf = (env: EnvOverrides) => (typeof env === 'function' ? env() : env);

/** `startTestApp` for every test of the file (or of the `describe` it is called in). */
export function useTestApp(envOverrides: EnvOverrides = {}, options: TestAppOptions = {}) {
  return shopForTheScope(() => startTestApp(settingsOf(envOverrides), options));
}

/** `startTestServer` for every test of the file (or of the `describe` it is called in). */
export function useTestServer(envOverrides: EnvOverrides = {}, options: TestAppOptions = {}) {
  return shopForTheScope(() => startTestServer(settingsOf(envOverrides), options));
}
