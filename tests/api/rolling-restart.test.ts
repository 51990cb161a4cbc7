import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startBalancer } from '../support/balancer';
import { postgresAdminUrl } from '../support/database';
import { prepareBuyingShop } from '../support/persistent-shop';
import { freePort, spawnServer, waitForReady, type SpawnedServer } from '../support/spawn-server';

const SESSION_SECRET = 'rolling-restart-session-secret-'.padEnd(48, 'x');
/** Long enough for the balancer's health check (every 200 ms) to see `/readyz` fail, short for a test. */
const DRAIN_MS = 1_500;

/** A buyer with a live session and a SKU with plenty of stock, in a database the spawned servers share. */
const prepareShop = (dataDir: string) => prepareBuyingShop(dataDir, SESSION_SECRET, 'restart-buyer');

/**
 * Runs `test` with a prepared shop and the environment of each of `copies` server copies, and
 * cleans up whatever it started. On PostgreSQL (and Redis, when set) the copies share one
 * database; an embedded PGlite database belongs to one process, so there each copy gets its own
 * copy of the prepared folder, the buyer's session included.
 */
async function withShop(
  copies: number,
  test: (
    shop: Awaited<ReturnType<typeof prepareShop>>,
    envs: Array<Record<string, string | undefined>>,
    started: SpawnedServer[],
  ) => Promise<void>,
) {
  const dataDirs = Array.from({ length: copies }, () => fs.mkdtempSync(path.join(os.tmpdir(), 'shop-rolling-')));
  const started: SpawnedServer[] = [];
  try {
    const shop = await prepareShop(dataDirs[0]!);
    if (!postgresAdminUrl)
      for (const dataDir of dataDirs.slice(1)) fs.cpSync(dataDirs[0]!, dataDir, { recursive: true });
    const redisUrl = process.env.REDIS_URL;
    const envs = dataDirs.map((dataDir) => ({
      DATA_DIR: dataDir,
      DATABASE_URL: shop.databaseUrl,
      ...(redisUrl ? { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `test-rolling:${process.pid}:${Date.now()}:` } : {}),
      SESSION_SECRET,
      SEED_DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
      // On the loaded 2-core machines tests share, a copy's event loop lags past a second now and
      // then and it sheds load (503, ADR 0074, tests/api/load-shedding.test.ts): a refusal that is
      // not the restart's doing.
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    }));
    await test(shop, envs, started);
  } finally {
    for (const server of started) await server.stop('SIGKILL');
    for (const dataDir of dataDirs) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** What a raw HTTP/1.1 exchange answered before the server closed the connection. */
function parseAnswer(raw: string) {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) };
}

/** Milliseconds since `start`. */
const since = (start: number) => Math.round(performance.now() - start);

describe('stopping a copy refuses nobody', { timeout: 300_000 }, () => {
  it('fails readiness at once, serves through the drain, finishes a request in flight and exits', async () => {
    await withShop(1, async (shop, [env], started) => {
      const server = spawnServer(env!, await freePort());
      started.push(server);
      await waitForReady(server.url);
      const { port } = new URL(server.url);
      const addToCart = (quantity: number) => JSON.stringify({ sku_id: shop.skuId, quantity });

      // A slow client: the request's headers and half its body arrive before the signal.
      const body = addToCart(2);
      const socket = net.connect(Number(port), '127.0.0.1');
      let received = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => (received += chunk));
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      const headerLines = Object.entries(shop.headers).map(([name, value]) => `${name}: ${value}\r\n`);
      socket.write(
        `POST /v1/cart/items HTTP/1.1\r\nHost: 127.0.0.1\r\n${headerLines.join('')}Content-Length: ${body.length}\r\n\r\n`,
      );
      socket.write(body.slice(0, 10));
      await new Promise((resolve) => setTimeout(resolve, 500));

      const signalled = performance.now();
      server.child.kill('SIGTERM');
      // Readiness fails first, while the copy still answers.
      await expect
        .poll(async () => (await fetch(`${server.url}/readyz`)).status, { timeout: 1_000, interval: 50 })
        .toBe(503);
      const failedReadinessAfter = since(signalled);
      expect(await (await fetch(`${server.url}/readyz`)).json()).toEqual({ status: 'stopping' });
      // A request during the drain is served, and its connection is not kept for another.
      const duringDrain = await fetch(`${server.url}/v1/cart/items`, {
        method: 'POST',
        headers: shop.headers,
        body: addToCart(1),
      });
      expect(duringDrain.status).toBe(200);
      expect(duringDrain.headers.get('connection')).toBe('close');

      // After the drain nobody new is let in.
      await expect
        .poll(
          () =>
            fetch(`${server.url}/readyz`).then(
              () => 'answered',
              (error: Error) => String(error.cause),
            ),
          {
            timeout: DRAIN_MS + 5_000,
            interval: 50,
          },
        )
        .toMatch(/ECONNREFUSED/);
      const refusedAfter = since(signalled);
      expect(failedReadinessAfter).toBeLessThan(DRAIN_MS);
      expect(refusedAfter).toBeGreaterThanOrEqual(DRAIN_MS);

      // The request in flight still completes, and is answered. (Not `end()`: Node aborts a
      // request whose client half-closes before the answer, as nginx never does.)
      socket.write(body.slice(10));
      await closed;
      const answer = parseAnswer(received);
      expect(answer.status).toBe(200);
      expect(answer.headers.connection).toBe('close');
      expect(answer.body.data.lines.map((line: { sku_id: number; quantity: number }) => line.quantity)).toEqual([3]);

      expect(await server.exited).toBe(0);
      const exitedAfter = since(signalled);
      // Well inside the limit (the drain plus 15 s): nothing was left to wait for.
      expect(exitedAfter).toBeLessThan(DRAIN_MS + 5_000);
    });
  });

  it('restarts two copies one after the other under POST load with every request answered 200', async () => {
    await withShop(2, async (shop, envs, started) => {
      const ports = [await freePort(), await freePort()];
      const copies = envs.map((env, i) => spawnServer(env, ports[i]!));
      started.push(...copies);
      await Promise.all(copies.map((copy) => waitForReady(copy.url)));
      const balancer = await startBalancer(copies.map((copy) => copy.url));

      const statuses: Record<string, number> = {};
      const unexpected: string[] = [];
      let sent = 0;
      let loading = true;
      const worker = async () => {
        while (loading) {
          sent++;
          const status = await fetch(`${balancer.url}/v1/cart/items`, {
            method: 'POST',
            headers: shop.headers,
            body: JSON.stringify({ sku_id: shop.skuId, quantity: 1 }),
          }).then(
            async (answer) => {
              const text = await answer.text();
              if (answer.status !== 200) unexpected.push(`${answer.status} ${text}`);
              return String(answer.status);
            },
            (error: Error) => `no answer: ${String(error.cause ?? error)}`,
          );
          statuses[status] = (statuses[status] ?? 0) + 1;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      const answered = () => Object.values(statuses).reduce((sum, count) => sum + count, 0);
      const load = Promise.all([worker(), worker(), worker()]);

      try {
        const stopTimes: number[] = [];
        for (const [i, copy] of copies.entries()) {
          const before = answered();
          await expect.poll(answered, { timeout: 30_000 }).toBeGreaterThanOrEqual(before + 30);
          const signalled = performance.now();
          expect(await copy.stop('SIGTERM')).toBe(0);
          stopTimes.push(since(signalled));
          // The same port again, as a deploy restarting a copy in place does.
          const restarted = spawnServer(envs[i]!, ports[i]!);
          started.push(restarted);
          await waitForReady(restarted.url);
        }
        const afterRestarts = answered();
        const servedBeforeRestarts = new Map(balancer.served);
        await expect.poll(answered, { timeout: 30_000 }).toBeGreaterThanOrEqual(afterRestarts + 30);
        loading = false;
        await load;

        expect(balancer.failures).toEqual([]);
        expect(unexpected).toEqual([]);
        expect(statuses).toEqual({ '200': sent });
        // Both restarted copies are back in rotation.
        for (const copy of copies)
          expect(balancer.served.get(copy.url)! - servedBeforeRestarts.get(copy.url)!).toBeGreaterThan(0);
        for (const stopTime of stopTimes) expect(stopTime).toBeLessThan(DRAIN_MS + 5_000);
      } finally {
        loading = false;
        await load;
        await balancer.close();
      }
    });
  });
});
