import http from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createSession } from '../../server/domains/customers/sessions.service';
import { users } from '../../server/db/schema';
import { openTestDatabase, postgresAdminUrl } from '../support/database';
import { freePort, spawnServer, unshed, waitForReady } from '../support/spawn-server';
import { startTcpProxy } from '../support/tcp-proxy';
import { startTestServer, type TestServer } from '../support/test-server';

// Spawned servers on a fresh embedded database pay for initdb first; give them room on a busy machine.
describe('start-up faults', { timeout: 120_000 }, () => {
  it('exits non-zero with a clear message when PostgreSQL is unreachable', async () => {
    const server = spawnServer({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test' }, await freePort());
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('Cannot open PostgreSQL at DATABASE_URL');
  });

  it('exits non-zero with a clear message when Redis is unreachable', async () => {
    const server = spawnServer({ REDIS_URL: 'redis://127.0.0.1:1', SEED_DEMO_DATA: 'false' }, await freePort());
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('Cannot connect to Redis at REDIS_URL');
  });

  it('refuses test knobs in production', async () => {
    const server = spawnServer({ CAPTCHA_TEST_ANSWER: '1234', SEED_DEMO_DATA: 'false' }, await freePort());
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('CAPTCHA_TEST_ANSWER is a test knob');
  });

  it('refuses to start in production without PUBLIC_URL, saying so in a JSON line', async () => {
    const server = spawnServer({ PUBLIC_URL: undefined, SEED_DEMO_DATA: 'false' }, await freePort());
    expect(await server.exited).toBe(1);
    const line = JSON.parse(server.output().trim().split('\n').pop()!);
    expect(line).toMatchObject({ level: 60, msg: 'cannot start: invalid configuration' });
    expect(line.problems).toContain('PUBLIC_URL is required');
  });
});

/** A built shop without demo data, ready; on PostgreSQL on its own clone of the template, never the shared database. */
async function spawnEmptyShop(env: Record<string, string> = {}) {
  const port = await freePort();
  const database = postgresAdminUrl
    ? await openTestDatabase({ dataDir: inject('dataDir'), runId: inject('runId') })
    : undefined;
  await database?.handle.close();
  const server = spawnServer({ SEED_DEMO_DATA: 'false', DATABASE_URL: database?.url, ...env }, port);
  try {
    await waitForReady(server.url);
  } catch (error) {
    await server.stop();
    await database?.drop();
    throw error;
  }
  return { server, port, database };
}

describe('graceful shutdown', { timeout: 120_000 }, () => {
  it('finishes an in-flight request on SIGTERM, then exits 0', async () => {
    // Load shedding off: a copy just started on a busy machine may shed this one request (503),
    // which says nothing about the stop this test is about.
    const { server, port, database } = await spawnEmptyShop({ OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' });
    try {
      const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/v1/sys/conf',
            // The server answers "100 Continue" once it holds the request's headers: from then
            // on the request is in flight, however slowly a loaded machine got there.
            headers: { 'content-type': 'application/json', lang: 'en', expect: '100-continue' },
          },
          (response) => {
            let body = '';
            response.on('data', (chunk) => (body += chunk));
            response.on('end', () => resolve({ status: response.statusCode!, body }));
          },
        );
        request.on('error', reject);
        request.on('continue', () => {
          request.write('{"slow":');
          server.child.kill('SIGTERM');
          setTimeout(() => request.end('true}'), 500);
        });
        request.flushHeaders();
      });
      const { status, body } = await answer;
      expect(status, body).toBe(404);
      expect(JSON.parse(body).code).toBe(404);
      expect(await server.exited).toBe(0);
      expect(server.output()).toContain('shutting down');
    } finally {
      await server.stop();
      await database?.drop();
    }
  });
});

describe('the request log', { timeout: 120_000 }, () => {
  it('writes one line per answered request, tallies cache hits, and loses nothing on SIGTERM', async () => {
    const { server, database } = await spawnEmptyShop();
    try {
      // A copy just started on a busy machine may shed a request (503, nothing done): it is sent again.
      for (let i = 0; i < 20; i++) expect((await unshed(() => fetch(`${server.url}/v1/good/list`))).status).toBe(200);
      for (let i = 0; i < 10; i++)
        expect((await unshed(() => fetch(`${server.url}/v1/no-such-call?n=${i}`))).status).toBe(404);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);

      const lines = server
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line));
      const answered = (url: string) =>
        lines.filter(
          (line) => line.msg === 'request completed' && line.req?.url.startsWith(url) && line.res?.statusCode !== 503,
        );
      expect(lines.some((line) => line.msg === 'incoming request')).toBe(false);
      // Each list call answered is either rendered and logged or a cache hit, counted, never both: the
      // first is rendered, and on a busy machine a start-up job may retire the cache once or twice.
      const [tally] = lines.filter((line) => line.msg === 'cache hits');
      expect(answered('/v1/good/list').length).toBeGreaterThanOrEqual(1);
      expect(tally?.cacheHits.api).toBeGreaterThanOrEqual(15);
      expect(answered('/v1/good/list').length + tally?.cacheHits.api).toBe(20);
      expect(answered('/v1/no-such-call')).toHaveLength(10);
      expect(answered('/v1/no-such-call')[9]).toMatchObject({
        level: 30,
        req: { method: 'GET', url: '/v1/no-such-call?n=9' },
        res: { statusCode: 404 },
      });
      expect(lines.filter((line) => line.msg === 'cache hits')).toEqual([
        expect.objectContaining({ cacheHits: { pages: 0, api: tally?.cacheHits.api, notModified: 0 } }),
      ]);
    } finally {
      await server.stop();
      await database?.drop();
    }
  });
});

describe('a crash', { timeout: 120_000 }, () => {
  it('is logged as one fatal JSON line with its error, after the lines before it, and exits 1', async () => {
    // A preloaded module throws from a signal handler: an uncaught exception at a moment the test picks.
    const crashOnSignal = encodeURIComponent('process.on("SIGUSR2", () => { throw new Error("crash test"); })');
    const { server, database } = await spawnEmptyShop({
      NODE_OPTIONS: `--import=data:text/javascript,${crashOnSignal}`,
    });
    try {
      // The crash comes while lines are still being written: the test stops reading the
      // server's output until the pipe is full (about 64 KB), so its writes wait in flight.
      server.child.stdout!.pause();
      const longPath = `/v1/no-such-call/${'x'.repeat(3_000)}`;
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, index) => fetch(`${server.url}${longPath}${index}`)),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(40).fill(404));
      // An answer can reach the test before the shop has run its end-of-response hook, which
      // logs its line (a write completing asynchronously is seen one turn of the event loop
      // later). One more answer after the 40 means that turn has passed: every line counted
      // below was logged before the crash.
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      server.child.kill('SIGUSR2');
      await new Promise((resolve) => setTimeout(resolve, 300));
      server.child.stdout!.resume();
      expect(await server.exited).toBe(1);
      const lines = server
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line));
      const answered = lines.flatMap((line, index) =>
        line.msg === 'request completed' && line.res.statusCode === 404 ? [index] : [],
      );
      expect(answered).toHaveLength(40);
      const fatal = lines.flatMap((line, index) => (line.level === 60 ? [index] : []));
      expect(fatal.map((index) => lines[index])).toEqual([
        expect.objectContaining({
          msg: 'uncaught exception: exiting',
          err: expect.objectContaining({ type: 'Error', message: 'crash test' }),
        }),
      ]);
      // Work still running as the process ends may log after it, but nothing logged before
      // the crash is written after it.
      expect(fatal[0]).toBeGreaterThan(answered.at(-1)!);
    } finally {
      await server.stop();
      await database?.drop();
    }
  });
});

describe.skipIf(!postgresAdminUrl)('PostgreSQL going away while running', () => {
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
  let server: TestServer;
  let direct: TestServer;

  beforeAll(async () => {
    direct = await startTestServer();
    const databaseUrl = new URL(direct.databaseUrl!);
    proxy = await startTcpProxy({ host: databaseUrl.hostname, port: Number(databaseUrl.port || 5432) });
    databaseUrl.host = `127.0.0.1:${proxy.port}`;
    server = await startTestServer({}, { databaseUrl: databaseUrl.toString() });
  });
  afterAll(async () => {
    await server?.close();
    await proxy?.close();
    await direct?.close();
  });

  it('reports unavailable, answers 503 envelopes, and recovers when the database returns', async () => {
    const [user] = await server.ctx.db
      .insert(users)
      .values({ email: 'outage@example.com', username: 'outage' })
      .returning();
    if (!user) throw new Error('inserting the outage user returned no row');
    const session = await createSession(server.ctx, user.id);
    const asUser = { headers: { token: session.token, sign: session.sign, lang: 'en' } };
    expect((await server.request('/v1/user/info', asUser)).body.code).toBe(200);

    await proxy.cut();
    const readiness = await server.request('/readyz');
    expect(readiness.status).toBe(503);
    expect(readiness.body.checks.database).toBe('unavailable');
    const during = await server.request('/v1/user/info', asUser);
    expect(during.status).toBe(503);
    expect(during.body).toEqual({
      code: 503,
      msg: 'The service is temporarily unavailable. Please try again shortly.',
      data: null,
    });
    expect(during.headers.get('retry-after')).toBe('5');

    await proxy.restore();
    expect((await server.request('/readyz')).status).toBe(200);
    expect((await server.request('/v1/user/info', asUser)).body).toMatchObject({ code: 200, data: { uid: user.id } });
  });
});
