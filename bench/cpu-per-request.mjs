// Server CPU time per request, for a machine shared with other work: requests/s moves with
// whatever else runs, the CPU the server spends on one request much less. Runs the built
// shop and the ceiling route (bench/ceiling.mjs), sends each target a fixed number of
// requests with autocannon (bodies not kept, as in bench/run.mjs) and reads the server
// process's user+system time from /proc before and after. Linux only.
//   node bench/cpu-per-request.mjs [--requests=20000] [--connections=50]
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import autocannon from 'autocannon';
import { ensureBuilt, startBuiltShop, startCeiling } from './lib/processes.mjs';

const PipelinedRequestsQueue = createRequire(import.meta.url)('autocannon/lib/pipelinedRequestsQueue.js');
PipelinedRequestsQueue.prototype.addBody = function ignoreBody() {};

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => [arg.replace(/^--/, '').split('=')[0], arg.split('=')[1] ?? 'true']),
);
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

const cpuMs = (pid) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
};
const run = (url, n) =>
  new Promise((resolve, reject) =>
    autocannon({ url, connections, amount: n, headers: { 'accept-encoding': 'gzip' } }, (error, result) =>
      error ? reject(error) : resolve(result),
    ),
  );
async function cpuPerRequest(pid, url) {
  await run(url, Math.min(5_000, amount)); // warm-up
  const before = cpuMs(pid);
  const result = await run(url, amount);
  return { usPerRequest: ((cpuMs(pid) - before) * 1000) / result.requests.total, non2xx: result.non2xx };
}

ensureBuilt();
const shop = await startBuiltShop({ name: 'cpu' });
const ceiling = await startCeiling();
try {
  const shopUrl = shop.url;
  const loadBefore = os.loadavg()[0].toFixed(1);
  const reference = await cpuPerRequest(ceiling.child.pid, `${ceiling.url}/`);
  const lines = [`| ceiling: bare Fastify route | ${reference.usPerRequest.toFixed(0)} | 100% | - |`];
  for (const [name, target, minRatio] of TARGETS) {
    await fetch(shopUrl + target);
    const row = await cpuPerRequest(shop.child.pid, shopUrl + target);
    const ratio = reference.usPerRequest / row.usPerRequest;
    lines.push(
      `| ${name} | ${row.usPerRequest.toFixed(0)} | ${(ratio * 100).toFixed(0)}% | ${minRatio * 100}% |${row.non2xx ? ` ${row.non2xx} non-2xx` : ''}`,
    );
  }
  const table = [
    '| target | server CPU µs per request | ceiling CPU ÷ target CPU | target ratio |',
    '|---|---:|---:|---:|',
    ...lines,
  ].join('\n');
  console.log(
    `\n${amount} requests per target at ${connections} connections; load average ${loadBefore} at start, ${os.loadavg()[0].toFixed(1)} at end\n\n${table}\n`,
  );
} finally {
  ceiling.stop();
  await shop.stop();
}
