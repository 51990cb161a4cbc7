// Server CPU time per request, for a machine shared with other work: requests/s moves with
// whatever else runs, the CPU the server spends on one request much less. Runs the built
// shop and the ceiling route (bench/ceiling.mjs), sends each target a fixed number of
// requests with autocannon (bodies not kept, as in bench/run.mjs) and reads the server
// process's user+system time from /proc before and after. Linux only.
//   node bench/cpu-per-request.mjs [--requests=20000] [--connections=50]
import { fork, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const PipelinedRequestsQueue = createRequire(import.meta.url)('autocannon/lib/pipelinedRequestsQueue.js');
PipelinedRequestsQueue.prototype.addBody = function ignoreBody() {};

const args = Object.fromEntries(process.argv.slice(2).map((arg) => [arg.replace(/^--/, '').split('=')[0], arg.split('=')[1] ?? 'true']));
const amount = Number(args.requests ?? 20_000);
const connections = Number(args.connections ?? 50);
const TARGETS = [
  ['home (SSR, zh-cn)', '/zh-cn/', 0.4],
  ['home (SSR, en)', '/en/', 0.4],
  ['content page (SSR)', '/en/faq', 0.4],
  ['GET /v1/siteManage', '/v1/siteManage', 0.6],
  ['GET /v1/good/list', '/v1/good/list', 0.6],
  ['product page (SSR)', '/en/product/1', 0.4],
  ['GET /v1/good/{id}', '/v1/good/1', 0.6],
];
const TICK_MS = 1000 / 100; // USER_HZ

const freePort = () =>
  new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
const cpuMs = (pid) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
};
const waitFor = async (url) => {
  for (let i = 0; i < 1200; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not become ready`);
};
const run = (url, n) =>
  new Promise((resolve, reject) =>
    autocannon({ url, connections, amount: n, headers: { 'accept-encoding': 'gzip' } }, (error, result) => (error ? reject(error) : resolve(result))),
  );
async function cpuPerRequest(pid, url) {
  await run(url, Math.min(5_000, amount)); // warm-up
  const before = cpuMs(pid);
  const result = await run(url, amount);
  return { usPerRequest: ((cpuMs(pid) - before) * 1000) / result.requests.total, non2xx: result.non2xx };
}

if (spawnSync('node', ['scripts/ensure-build.mjs'], { stdio: 'inherit' }).status !== 0) process.exit(1);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-cpu-'));
const [shopPort, ceilingPort] = [await freePort(), await freePort()];
const shop = spawn(process.execPath, ['build/app-server/main.js'], {
  env: { ...process.env, NODE_ENV: 'production', PORT: String(shopPort), PUBLIC_URL: `http://127.0.0.1:${shopPort}`, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const ceiling = fork('bench/ceiling.mjs', { env: { ...process.env, PORT: String(ceilingPort) } });
try {
  const shopUrl = `http://127.0.0.1:${shopPort}`;
  await waitFor(`${shopUrl}/readyz`);
  await waitFor(`http://127.0.0.1:${ceilingPort}/`);
  const loadBefore = os.loadavg()[0].toFixed(1);
  const reference = await cpuPerRequest(ceiling.pid, `http://127.0.0.1:${ceilingPort}/`);
  const lines = [`| ceiling: bare Fastify route | ${reference.usPerRequest.toFixed(0)} | 100% | - |`];
  for (const [name, target, minRatio] of TARGETS) {
    await fetch(shopUrl + target);
    const row = await cpuPerRequest(shop.pid, shopUrl + target);
    const ratio = reference.usPerRequest / row.usPerRequest;
    lines.push(`| ${name} | ${row.usPerRequest.toFixed(0)} | ${(ratio * 100).toFixed(0)}% | ${minRatio * 100}% |${row.non2xx ? ` ${row.non2xx} non-2xx` : ''}`);
  }
  const table = ['| target | server CPU µs per request | ceiling CPU ÷ target CPU | target ratio |', '|---|---:|---:|---:|', ...lines].join('\n');
  console.log(`\n${amount} requests per target at ${connections} connections; load average ${loadBefore} at start, ${os.loadavg()[0].toFixed(1)} at end\n\n${table}\n`);
} finally {
  shop.kill('SIGTERM');
  ceiling.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}
