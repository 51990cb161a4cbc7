// `npm run bench -- --only=private` (or `npm run bench:private`): what a signed-in buyer's own
// pages cost. Creates buyers with sessions, addresses and orders placed through the API, then
// measures, against the bare Fastify route in the same run (bench/ceiling.mjs), each private
// page and API answer with a real session: My Orders, an order's detail, the account page, the
// header call every page makes (`GET /v1/visitor`) and the order list API. Prints req/s,
// p50/p99, the ratio to the ceiling, and the shop's peak resident memory (VmHWM) over the run.
//   npm run bench:private                                embedded PGlite
//   DATABASE_URL=postgres://... npm run bench:private    PostgreSQL (a fresh database, dropped after)
// Options: --duration=5 --connections=50 --rounds=3 --buyers=50 --orders=10 (per buyer) --record
//   --only=<part of a target's name> (from `npm run bench:private`; `npm run bench -- --only=private` runs all)
import fs from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import autocannon from 'autocannon';
import { migrateDatabase } from '../server/db/client.ts';
import { productSkus } from '../server/db/schema/index.ts';
import { createBenchBuyers } from './lib/bench-buyers.mjs';
import { createBenchDatabase } from './lib/bench-database.mjs';
import { ensureBuilt, startBuiltShop, startCeiling } from './lib/processes.mjs';

// As in bench/run.mjs: autocannon would decode every body into a string nobody reads.
const PipelinedRequestsQueue = createRequire(import.meta.url)('autocannon/lib/pipelinedRequestsQueue.js');
PipelinedRequestsQueue.prototype.addBody = function ignoreBody() {};

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? 'true'];
  }),
);
const DURATION = Number(args.duration ?? 5);
const CONNECTIONS = Number(args.connections ?? 50);
const ROUNDS = Number(args.rounds ?? 3);
const BUYERS = Number(args.buyers ?? 50);
const ORDERS_PER_BUYER = Number(args.orders ?? 10);
const SESSION_SECRET = 'bench-private-secret-'.padEnd(48, 'x');
/** Issue 13's targets: My Orders at 1,500 req/s with p99 under 50 ms; every private answer's p99 under 50 ms. */
const MY_ORDERS_TARGET_RPS = 1_500;
const SIGNED_IN_MIN_SHARE = 0.9;
const MAX_P99_MS = 50;
/** One server process under these loads stays under this resident memory. */
const MAX_RSS_MB = 250;

ensureBuilt();
const benchDatabase = await createBenchDatabase('private');
const serverEnv = { SESSION_SECRET, ORDER_SWEEP_INTERVAL_SECONDS: '0', ...benchDatabase.serverEnv };

/** Peak resident set of a process so far, in MB (Linux). */
function peakRssMb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

function load(url, { headers = {}, requests } = {}, seconds = DURATION) {
  return new Promise((resolve, reject) =>
    autocannon(
      {
        url,
        connections: CONNECTIONS,
        duration: seconds,
        headers: { 'accept-encoding': 'gzip', ...headers },
        requests,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  );
}

async function measure(url, options) {
  await load(url, options, 1);
  const result = await load(url, options);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

let report;
try {
  // 1. The first start migrates and seeds; stop it so an embedded database is free.
  let shop = await startBuiltShop({ dataDir: benchDatabase.dataDir, env: serverEnv });
  await shop.stop();

  // 2. Buyers with a session and an address (written directly), and plenty of stock.
  const handle = await benchDatabase.open();
  await migrateDatabase(handle);
  const buyers = await createBenchBuyers(handle, { count: BUYERS, prefix: 'private', sessionSecret: SESSION_SECRET });
  const skus = await handle.db.select({ id: productSkus.id }).from(productSkus).orderBy(productSkus.id).limit(4);
  await handle.db.update(productSkus).set({ stock: 1_000_000 });
  await handle.close();

  // 3. The orders, placed through the shop as buyers place them.
  shop = await startBuiltShop({ dataDir: benchDatabase.dataDir, env: serverEnv });
  const ceiling = await startCeiling();
  try {
    const orderIds = [];
    for (const [b, buyer] of buyers.entries()) {
      for (let n = 0; n < ORDERS_PER_BUYER; n++) {
        const response = await fetch(`${shop.url}/v2/order`, {
          method: 'POST',
          headers: {
            token: buyer.session.token,
            sign: buyer.session.sign,
            'content-type': 'application/json',
            lang: 'en',
          },
          body: JSON.stringify({
            items: [{ sku_id: skus[(b + n) % skus.length].id, quantity: 1 + (n % 2) }],
            address_id: buyer.addressId,
          }),
        });
        const body = await response.json();
        if (response.status !== 200) throw new Error(`placing a bench order failed: ${JSON.stringify(body)}`);
        if (b === 0) orderIds.push(body.data.id);
      }
    }
    const first = buyers[0].session;
    // The cookies a browser holds after its first page: the session, the CSRF and language cookies.
    const cookie = { cookie: `access_token=${first.token}; signed_in=1; csrf_token=bench-browser; lang=en` };
    const apiHeaders = { token: first.token, sign: first.sign, lang: 'en' };
    const targets = [
      { name: 'My Orders page', path: '/en/my/order', headers: cookie, minRps: MY_ORDERS_TARGET_RPS },
      { name: 'order detail page', path: `/en/my/order/${orderIds[0]}`, headers: cookie },
      { name: 'account page', path: '/en/my/account', headers: cookie },
      { name: 'GET /v1/visitor (every page, signed in)', path: '/v1/visitor', headers: cookie },
      { name: 'GET /v1/order/list (API)', path: '/v1/order/list?page=1&page_size=10', headers: apiHeaders },
      // Issue 13: the signed-in product page serves at least 90% of the anonymous one; each round
      // measures the two back to back, and the share is the median of the rounds' shares.
      { name: 'product page, anonymous', path: '/en/product/1', headers: {} },
      {
        name: 'product page, signed in (real session)',
        path: '/en/product/1',
        headers: cookie,
        shareOf: 'product page, anonymous',
        minShare: SIGNED_IN_MIN_SHARE,
      },
    ];
    if (args.only) targets.splice(0, targets.length, ...targets.filter((target) => target.name.includes(args.only)));
    for (const target of targets) {
      const probe = await fetch(shop.url + target.path, { headers: target.headers });
      if (probe.status !== 200) throw new Error(`${target.path} answers ${probe.status} to the bench buyer`);
      target.rounds = [];
    }
    await load(`${ceiling.url}/`, {}, 2);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const target of targets) {
        const reference = await measure(`${ceiling.url}/`);
        const result = await measure(shop.url + target.path, { headers: target.headers });
        target.rounds.push({ ...result, ratio: result.rps / reference.rps, ceiling: reference.rps });
        console.log(
          `round ${round}/${ROUNDS} ${target.name}: ${Math.round(result.rps)} req/s, p99 ${result.p99} ms, ceiling ${Math.round(reference.rps)}; load ${os.loadavg()[0].toFixed(1)}`,
        );
      }
    }
    const rssMb = peakRssMb(shop.child.pid);
    const rows = targets.map((target) => {
      const rps = median(target.rounds.map((r) => r.rps));
      const p99 = Math.max(...target.rounds.map((r) => r.p99));
      const failures = target.rounds.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
      const compared = targets.find((other) => other.name === target.shareOf);
      const share = compared ? median(target.rounds.map((r, index) => r.rps / compared.rounds[index].rps)) : undefined;
      const ok =
        p99 < MAX_P99_MS &&
        failures === 0 &&
        (!target.minRps || rps >= target.minRps) &&
        (share === undefined || share >= target.minShare);
      const shareText =
        share === undefined ? '' : `${(share * 100).toFixed(0)}% of anonymous (>= ${target.minShare * 100}%), `;
      return {
        line: `| ${target.name} | ${Math.round(rps)} | ${median(target.rounds.map((r) => r.p50))} | ${p99} | ${Math.round(median(target.rounds.map((r) => r.ceiling)))} | ${(median(target.rounds.map((r) => r.ratio)) * 100).toFixed(1)}% | ${failures} | ${shareText}${target.minRps ? `>= ${target.minRps} req/s, ` : ''}p99 < ${MAX_P99_MS} ms ${ok ? 'met' : 'NOT met'} |`,
        ok,
      };
    });
    const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average ${os.loadavg()[0].toFixed(1)} at the end`;
    const table = [
      '| target (a real session where signed in) | req/s | p50 ms | p99 ms | ceiling req/s | ratio | non-2xx + errors | target |',
      '|---|---:|---:|---:|---:|---:|---:|---|',
      ...rows.map((row) => row.line),
    ].join('\n');
    const memoryOk = rssMb < MAX_RSS_MB;
    report = {
      ok: rows.every((row) => row.ok) && memoryOk,
      text: `Database: ${benchDatabase.label}\nMachine: ${machine}\n${BUYERS} buyers × ${ORDERS_PER_BUYER} orders; ${CONNECTIONS} connections, ${ROUNDS} rounds × ${DURATION} s (medians; worst p99)\n\n${table}\n\nShop peak resident memory (VmHWM) over the whole run: ${rssMb.toFixed(0)} MB (target < ${MAX_RSS_MB} MB: ${memoryOk ? 'met' : 'NOT met'})`,
    };
  } finally {
    ceiling.stop();
    await shop.stop();
  }
} finally {
  await benchDatabase.remove();
}

console.log(`\n${report.text}`);
if (args.record) {
  fs.appendFileSync(
    'docs/benchmarks.md',
    `\n## ${new Date().toISOString().slice(0, 10)}: private pages (bench/private-pages.mjs)\n\n${report.text}\n`,
  );
  console.log('Recorded in docs/benchmarks.md');
}
process.exit(report.ok ? 0 : 1);
