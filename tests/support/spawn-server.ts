import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OVERLOAD_RETRY_AFTER_SECONDS } from '../../server/http/load-shedding';

export interface SpawnedServer {
  child: ChildProcess;
  url: string;
  output(): string;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Runs the built server as `npm start` would, in its own process with a throwaway DATA_DIR. */
export function spawnServer(env: Record<string, string | undefined>, port: number): SpawnedServer {
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'shop-spawn-'));
  // The test run's own DATABASE_URL/REDIS_URL point at the shared admin database; a spawned
  // server uses them only when a test passes them, so it can never migrate that database.
  const { DATABASE_URL: _database, REDIS_URL: _redis, ...inherited } = process.env;
  const merged = {
    ...inherited,
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    // No balancer in front to wait for; the rolling-restart test sets its own drain.
    SHUTDOWN_DRAIN_MS: '0',
    ...env,
  };
  const childEnv = Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined));
  const child = spawn(process.execPath, ['build/app-server/main.js'], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      const code = await exited;
      if (!env.DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

/**
 * Sends a request to a spawned copy until it is not shed: a copy still warming up, or one on a
 * machine busy with other tests, answers 503 with load shedding's Retry-After (nothing done)
 * while its event loop is behind, and such a request is safe to send again. Any other 503 (the
 * database unavailable) is answered to the test as it came.
 */
export async function unshed(send: () => Promise<Response>): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const response = await send();
    const shed =
      response.status === 503 && response.headers.get('retry-after') === String(OVERLOAD_RETRY_AFTER_SECONDS);
    if (!shed || attempt === 40) return response;
    await response.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

export async function waitForReady(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server at ${url} not ready after ${timeoutMs} ms`);
}

/**
 * A port no other test process is using, from below the kernel's ephemeral range (32768 and
 * up here): a port from that range can be taken as the local end of any outgoing connection
 * (a database client, a fetch) between being found free and the server listening on it, which
 * failed a restart test with EADDRINUSE. Each vitest worker draws from its own window of
 * ports, and a port is checked free on every address before it is handed out.
 */
export async function freePort(): Promise<number> {
  const worker = Number(process.env.VITEST_POOL_ID ?? 1);
  const windowStart = PORTS_FROM + ((worker - 1) % WINDOWS) * PORTS_PER_WINDOW;
  for (let attempt = 0; attempt < PORTS_PER_WINDOW; attempt++) {
    const port = windowStart + (nextPortInWindow++ % PORTS_PER_WINDOW);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${windowStart}-${windowStart + PORTS_PER_WINDOW - 1}`);
}

const PORTS_FROM = 20_000;
const PORTS_PER_WINDOW = 800;
const WINDOWS = 15;
let nextPortInWindow = Math.floor(Math.random() * PORTS_PER_WINDOW);

async function canListen(port: number): Promise<boolean> {
  const net = await import('node:net');
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    // The shop listens on 0.0.0.0 by default: a port is free only if that address can take it.
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}
