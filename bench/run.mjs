// `npm run bench`: measures the built shop against a bare Fastify route in one run and
// prints requests/s, p50/p99 latency and each target's ratio to the ceiling, and to a bare
// route sending the same number of bytes (what the transfer alone costs on this machine).
//   npm run bench                      embedded database, 50 connections, 10 s per target
//   npm run bench -- --record          also appends the table to docs/benchmarks.md
//   DATABASE_URL=... npm run bench     against PostgreSQL
// Options: --duration=<s> --connections=<n> --only=<name,name>
import { fork, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { createRequire } from 'node:module';
import autocannon from 'autocannon';

// autocannon appends every response body to a JavaScript string (`body += chunk`) in case a
// body check was asked for; none is here. Decoding 14 KB of gzip bytes as UTF-8 per response
// made the load generator, which shares this machine's CPU with the server, the bottleneck
// for compressed pages (ASCII bodies decode ten times faster, so a bare route sending 'x'
// bytes looked fast and a page sending gzip looked slow). The ceiling and every target are
// measured with the same client, so dropping the unused copy keeps the comparison fair.
const PipelinedRequestsQueue = createRequire(import.meta.url)('autocannon/lib/pipelinedRequestsQueue.js');
PipelinedRequestsQueue.prototype.addBody = function ignoreBody() {};

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? 'true'];
  }),
);
const duration = Number(args.duration ?? 10);
const connections = Number(args.connections ?? 50);
const only = args.only ? new Set(args.only.split(',')) : null;

/** What we measure; targets whose path does not answer 200 yet (a later issue's endpoint) are skipped. */
const TARGETS = [
  { name: 'home (SSR, zh-cn)', path: '/zh-cn/', minRatio: 0.4 },
  { name: 'home (SSR, en)', path: '/en/', minRatio: 0.4 },
  { name: 'content page (SSR)', path: '/en/faq', minRatio: 0.4 },
  { name: 'GET /v1/siteManage', path: '/v1/siteManage', minRatio: 0.6 },
  { name: 'GET /v1/good/list', path: '/v1/good/list', minRatio: 0.6 },
  { name: 'product page (SSR)', path: '/en/product/1', minRatio: 0.4 },
  { name: 'GET /v1/good/{id}', path: '/v1/good/1', minRatio: 0.6 },
];

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not become ready`);
}

function measure(url, seconds = duration) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, headers: { 'accept-encoding': 'gzip' } }, (error, result) => {
      if (error) reject(error);
      else resolve(result);
    });
  });
}

function summarize(name, result) {
  return {
    name,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

const build = spawnSync('node', ['scripts/ensure-build.mjs'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-bench-'));
const shopPort = await freePort();
const ceilingPort = await freePort();
const shop = spawn(process.execPath, ['build/app-server/main.js'], {
  env: { ...process.env, NODE_ENV: 'production', PORT: String(shopPort), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const ceiling = fork('bench/ceiling.mjs', { env: { ...process.env, PORT: String(ceilingPort) } });
const stopAll = () => {
  shop.kill('SIGTERM');
  ceiling.kill('SIGTERM');
};
process.on('exit', stopAll);

try {
  const shopUrl = `http://127.0.0.1:${shopPort}`;
  await waitFor(`${shopUrl}/readyz`);
  await waitFor(`http://127.0.0.1:${ceilingPort}/`);

  const rows = [];
  const loadBefore = os.loadavg()[0].toFixed(1);
  console.log(`\nWarming up, then ${duration} s per target at ${connections} connections…`);
  await measure(`http://127.0.0.1:${ceilingPort}/`).catch(() => {});
  const reference = summarize('ceiling: bare Fastify route', await measure(`http://127.0.0.1:${ceilingPort}/`));
  rows.push({ ...reference, ratio: 1 });

  for (const target of TARGETS) {
    if (only && !only.has(target.path) && !only.has(target.name)) continue;
    const probe = await fetch(shopUrl + target.path).catch(() => null);
    if (!probe || probe.status !== 200) {
      console.log(`skip ${target.name}: ${target.path} answers ${probe?.status ?? 'nothing'}`);
      continue;
    }
    const sample = await fetch(shopUrl + target.path, { headers: { 'accept-encoding': 'gzip' } });
    const bytes = Number(sample.headers.get('content-length')) || (await sample.arrayBuffer()).byteLength;
    // Other processes on a shared machine come and go, so each target is compared with the
    // ceiling measured right before it; each gets a short warm-up, as the ceiling had.
    const ceilingNow = summarize('', await measure(`http://127.0.0.1:${ceilingPort}/`));
    await measure(shopUrl + target.path, 2);
    const row = summarize(target.name, await measure(shopUrl + target.path));
    await measure(`http://127.0.0.1:${ceilingPort}/bytes?n=${bytes}`, 2);
    const sameSize = summarize('', await measure(`http://127.0.0.1:${ceilingPort}/bytes?n=${bytes}`));
    rows.push({ ...row, bytes, ceiling: ceilingNow.rps, ratio: row.rps / ceilingNow.rps, sizedRatio: row.rps / sameSize.rps, minRatio: target.minRatio });
  }

  const database = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite (embedded)';
  const header = `| target | bytes sent (gzip) | req/s | p50 ms | p99 ms | ceiling req/s (just before) | ratio to ceiling | ratio to same-size bare route | target ratio | met | non-2xx | errors |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|`;
  const lines = rows.map(
    (row) =>
      `| ${row.name} | ${row.bytes ?? 17} | ${row.rps} | ${row.p50} | ${row.p99} | ${row.ceiling ?? row.rps} | ${(row.ratio * 100).toFixed(1)}% | ${row.sizedRatio ? `${(row.sizedRatio * 100).toFixed(1)}%` : '-'} | ${row.minRatio ? `${row.minRatio * 100}%` : '-'} | ${row.minRatio ? (row.ratio >= row.minRatio && row.p99 < 50 ? 'yes' : 'no') : '-'} | ${row.non2xx} | ${row.errors} |`,
  );
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const machine = `${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
  const table = [header, ...lines].join('\n');
  const load = `load average (1 min) ${loadBefore} at start, ${os.loadavg()[0].toFixed(1)} at end; ${new Date().toISOString()}`;
  console.log(`\nDatabase: ${database}\nMachine: ${machine}\nLoad: ${load}\n\n${table}\n`);

  if (args.record) {
    const entry = `\n## ${new Date().toISOString().slice(0, 10)}: ${database}, ${connections} connections, ${duration} s per target\n\nMachine: ${machine}\nLoad: ${load}\n\n${table}\n`;
    fs.appendFileSync('docs/benchmarks.md', entry);
    console.log('Recorded in docs/benchmarks.md');
  }
} finally {
  stopAll();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
