// The processes a benchmark measures: the shop as `npm start` runs its build, and the bare
// Fastify route (bench/ceiling.mjs) every figure is a ratio to.
import { fork, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Builds the shop when its sources changed since the last build; exits on a failed build. */
export function ensureBuilt() {
  const build = spawnSync('node', ['scripts/ensure-build.mjs'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

export function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export async function waitFor(url, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not become ready`);
}

/**
 * The node options `npm start` runs the shop with (package.json), e.g. the V8 heap limits of
 * ADR 0177, so a benchmark measures the process as shipped.
 */
export function startScriptNodeOptions() {
  const start = JSON.parse(fs.readFileSync('package.json', 'utf8')).scripts.start;
  const command = /\bnode((?:\s+--[\w-]+(?:=\S+)?)*)\s+build\/app-server\/main\.js/.exec(start);
  if (!command) throw new Error('package.json "start" no longer runs node build/app-server/main.js');
  return command[1].split(/\s+/).filter(Boolean);
}

/**
 * Starts the built shop in production mode on a free port with its own data directory
 * (`env` adds to or overrides the defaults) and waits until it is ready. Its log goes to
 * `logFile` in that directory.
 */
export async function startBuiltShop({ name, env = {}, dataDir } = {}) {
  const ownDataDir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), `shop-${name ?? 'bench'}-`));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // The log as shipped (LOG_LEVEL info, JSON on stdout), written to a file as a container's log
  // driver would: the benchmark pays for it like a real shop does.
  const logFile = path.join(ownDataDir, 'shop.log');
  const logFd = fs.openSync(logFile, 'a');
  // BENCH_SHOP_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the shop, not the load generator;
  // coming last, its flags override npm start's (V8 takes a flag's last value).
  const nodeArgs = [
    ...startScriptNodeOptions(),
    ...(process.env.BENCH_SHOP_NODE_ARGS ?? '').split(' ').filter(Boolean),
  ];
  const child = spawn(process.execPath, [...nodeArgs, 'build/app-server/main.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      // As `npm start` sets it: glibc's per-thread malloc arenas cost ~70 MB of resident memory.
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: ownDataDir,
      ...env,
    },
    stdio: ['ignore', logFd, 'inherit'],
  });
  fs.closeSync(logFd);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  /** Stops the shop and waits for it to exit (an embedded database is free again after it). */
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    if (!dataDir) fs.rmSync(ownDataDir, { recursive: true, force: true });
  };
  await waitFor(`${url}/readyz`);
  return { url, child, dataDir: ownDataDir, logFile, stop };
}

/** The bare Fastify route of bench/ceiling.mjs on a free port, ready. */
export async function startCeiling() {
  const port = await freePort();
  const child = fork('bench/ceiling.mjs', { env: { ...process.env, PORT: String(port) } });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/`);
  return { url, child, stop: () => child.kill('SIGTERM') };
}
