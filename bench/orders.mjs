// `npm run bench:orders`: a flash sale. For each round, 200 buyers (each with a session and
// an address) order one unit of the same SKU at once; the SKU has 50 in stock. Checks that
// exactly 50 orders are created, nothing is oversold and no request fails with a 5xx, and
// prints orders/s and latency. The shop runs as `npm start` would, in its own process.
//   npm run bench:orders                       embedded PGlite
//   DATABASE_URL=postgres://... npm run bench:orders   PostgreSQL (a fresh database is created and dropped)
// With --stock at least --buyers (e.g. --stock=100000) every buyer must get an order instead.
// --browse=SECONDS then measures anonymous browsing (home, listings, product pages) idle and
// while orders for one product are placed at --browse-orders=50 per second.
// Each round's burst is also sent to a bare Fastify route in its own process (bench/ceiling.mjs),
// just before the shop's: what this machine and load generator can show at all, the reference.
// Options: --buyers=200 --stock=50 --rounds=5 --browse=0 --browse-orders=50 --record (appends to docs/benchmarks.md)
// Runs under `node --import tsx` so it can create sessions with the shop's own code.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { and, eq, inArray, sql } from 'drizzle-orm';
import autocannon from 'autocannon';
import { migrateDatabase } from '../server/db/client.ts';
import { orderItems, orders, productSkus, products } from '../server/db/schema/index.ts';
import { createBenchBuyers } from './lib/bench-buyers.mjs';
import { createBenchDatabase } from './lib/bench-database.mjs';
import { ensureBuilt, startBuiltShop, startCeiling } from './lib/processes.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? 'true'];
  }),
);
const BUYERS = Number(args.buyers ?? 200);
const STOCK = Number(args.stock ?? 50);
const ROUNDS = Number(args.rounds ?? 5);
const BROWSE_SECONDS = Number(args.browse ?? 0);
const BROWSE_ORDERS_PER_SECOND = Number(args['browse-orders'] ?? 50);
/** Orders a round should create: every buyer's while stock lasts. */
const EXPECTED_ORDERS = Math.min(BUYERS, STOCK);
const SESSION_SECRET = 'bench-orders-secret-'.padEnd(48, 'x');

ensureBuilt();

const benchDatabase = await createBenchDatabase('orders');
const { dataDir } = benchDatabase;
const serverEnv = {
  SESSION_SECRET,
  ORDER_SWEEP_INTERVAL_SECONDS: '0',
  ...benchDatabase.serverEnv,
};

const startShop = () => startBuiltShop({ dataDir, env: serverEnv });

const openShopDatabase = benchDatabase.open;

const TICK_MS = 1000 / 100; // USER_HZ
/** User + system CPU milliseconds a process has used so far (Linux /proc). */
function cpuMsOf(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0; // the process ended in between
  }
}
/** CPU milliseconds used so far by every PostgreSQL server process on this machine (0 on PGlite). */
function databaseCpuMs() {
  if (!process.env.DATABASE_URL) return 0;
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') total += cpuMsOf(entry);
    } catch {
      // gone between the listing and the read
    }
  }
  return total;
}

/**
 * Keep-alive connections for the bursts, as many as there are buyers. node:http costs the load
 * generator about half the CPU per request that fetch does, and the generator shares the
 * machine with the shop.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

/** One POST; answers its status and how many bytes its answer had. */
function post(url, headers, body) {
  return new Promise((resolve) => {
    const request = http.request(
      url,
      { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (response) => {
        let bytes = 0;
        response.on('data', (chunk) => (bytes += chunk.length));
        response.on('end', () => resolve({ status: response.statusCode, bytes }));
        response.on('error', () => resolve({ status: 'network error', bytes }));
      },
    );
    request.on('error', () => resolve({ status: 'network error', bytes: 0 }));
    request.end(body);
  });
}

/** One unit of `skuId` for `buyer`, as the POST /v2/order request `post` and `burst` send. */
function orderRequest(buyer, skuId, idempotencyKey) {
  return {
    headers: idempotencyKey ? { ...buyer.headers, 'idempotency-key': idempotencyKey } : buyer.headers,
    body: JSON.stringify({ items: [{ sku_id: skuId, quantity: 1 }], address_id: buyer.addressId }),
  };
}

/**
 * Sends every request at once and answers, for each, its status, when its answer had fully
 * arrived (ms after the first was sent) and its latency.
 */
async function burst(url, requests) {
  const started = performance.now();
  const answers = await Promise.all(
    requests.map(async ({ headers, body }) => {
      const sent = performance.now();
      const { status, bytes } = await post(url, headers, body);
      const now = performance.now();
      return { status, at: now - started, latency: now - sent, bytes };
    }),
  );
  return { answers, elapsed: performance.now() - started };
}

/** `count` orders by when the count-th answer of 200 arrived, per second; 0 when fewer came. */
function ordersPerSecondOf(answers, count) {
  const made = answers
    .filter((answer) => answer.status === 200)
    .map((answer) => answer.at)
    .sort((a, b) => a - b);
  return count > 0 && made.length >= count ? count / (made[count - 1] / 1000) : 0;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * Requests per second of autocannon cycling through `paths` for BROWSE_SECONDS, after a 2 s
 * warm-up whose figures are kept as `warmUp`: the first browsing meets pages nobody has opened
 * since the shop started (cold), and shows what many visitors asking for them together cost.
 */
async function browse(url, paths) {
  const run = (seconds) =>
    new Promise((resolve, reject) =>
      autocannon(
        {
          url,
          connections: 50,
          duration: seconds,
          headers: { 'accept-encoding': 'gzip' },
          requests: paths.map((path) => ({ method: 'GET', path })),
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      ),
    );
  const figures = (result) => ({ rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx });
  const warmUp = figures(await run(2));
  return { ...figures(await run(BROWSE_SECONDS)), warmUp };
}

/**
 * Anonymous browsing idle, then while buyers order the browsed product at
 * BROWSE_ORDERS_PER_SECOND: a sale should retire that product's pages, not the cache.
 */
async function measureBrowsing(url, buyers, skuId, paths) {
  const idle = await browse(url, paths);
  let placed = 0;
  let failed = 0;
  const pending = new Set();
  const timer = setInterval(() => {
    const buyer = buyers[placed % buyers.length];
    const { headers, body } = orderRequest(buyer, skuId);
    const sent = post(`${url}/v2/order`, headers, body)
      .then(({ status }) => {
        if (status !== 200) failed++;
      })
      .finally(() => pending.delete(sent));
    pending.add(sent);
    placed++;
  }, 1000 / BROWSE_ORDERS_PER_SECOND);
  const startedAt = performance.now();
  const busy = await browse(url, paths);
  clearInterval(timer);
  const orderSeconds = (performance.now() - startedAt) / 1000;
  await Promise.all(pending);
  return {
    coldRps: Math.round(idle.warmUp.rps),
    coldP99: idle.warmUp.p99,
    idleRps: Math.round(idle.rps),
    busyRps: Math.round(busy.rps),
    ratio: busy.rps / idle.rps,
    ordersPerSecond: Math.round((placed - failed) / orderSeconds),
    ordersFailed: failed,
    idleP99: idle.p99,
    busyP99: busy.p99,
    non2xx: idle.warmUp.non2xx + idle.non2xx + busy.non2xx,
  };
}

const results = [];
let browsing;
try {
  // 1. First start migrates and seeds the demo shop; stop it so the embedded database is free.
  let shop = await startShop();
  await shop.stop();

  // 2. Buyers with sessions and addresses, and one SKU per round with STOCK units.
  const handle = await openShopDatabase();
  await migrateDatabase(handle);
  const buyers = (
    await createBenchBuyers(handle, { count: BUYERS, prefix: 'bench', sessionSecret: SESSION_SECRET })
  ).map((buyer) => ({ headers: buyer.apiHeaders, addressId: buyer.addressId }));
  const skus = await handle.db
    .select({ id: productSkus.id })
    .from(productSkus)
    .innerJoin(products, eq(products.id, productSkus.productId))
    .where(eq(products.listed, true))
    .orderBy(productSkus.id)
    .limit(ROUNDS + 1);
  const skuIds = skus.slice(0, ROUNDS).map((sku) => sku.id);
  await handle.db.update(productSkus).set({ stock: STOCK }).where(inArray(productSkus.id, skuIds));
  // The browsing benchmark's hot SKU: plenty, so every order of it succeeds.
  const browseSku = skus[ROUNDS];
  await handle.db.update(productSkus).set({ stock: 1_000_000 }).where(eq(productSkus.id, browseSku.id));
  const [browseProduct] = await handle.db
    .select({ productId: productSkus.productId })
    .from(productSkus)
    .where(eq(productSkus.id, browseSku.id));
  const otherProducts = await handle.db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.listed, true), sql`${products.id} <> ${browseProduct.productId}`))
    .orderBy(products.id)
    .limit(6);
  await handle.close();

  // 3. The flash sales.
  shop = await startShop();
  let ceiling;
  try {
    ceiling = await startCeiling();
    // One order of the browsing SKU tells the size of the shop's answer to a placed order, which
    // the bare route answers with too.
    const sizingOrder = orderRequest(buyers[0], browseSku.id, 'bench-answer-size');
    const sizing = await post(`${shop.url}/v2/order`, sizingOrder.headers, sizingOrder.body);
    if (sizing.status !== 200) throw new Error(`the sizing order was answered ${sizing.status}`);
    const orderAnswerBytes = sizing.bytes;
    for (const [round, skuId] of skuIds.entries()) {
      const requests = buyers.map((buyer, i) => orderRequest(buyer, skuId, `bench-${round}-${i}`));
      // The bare route answers every request, so its "orders" are its first EXPECTED_ORDERS answers.
      const bare = await burst(`${ceiling.url}/order?n=${orderAnswerBytes}`, requests);
      const bareOrdersPerSecond = ordersPerSecondOf(bare.answers, EXPECTED_ORDERS);

      const cpuBefore = { shop: cpuMsOf(shop.child.pid), database: databaseCpuMs() };
      const { answers, elapsed } = await burst(`${shop.url}/v2/order`, requests);
      // Measured before the outbox sends the round's emails, so this is the orders' own cost.
      const shopCpuMs = cpuMsOf(shop.child.pid) - cpuBefore.shop;
      const databaseCpu = databaseCpuMs() - cpuBefore.database;
      const statuses = new Map();
      for (const { status } of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
      const latencies = answers.map((answer) => answer.latency).sort((a, b) => a - b);
      const created = statuses.get(200) ?? 0;
      const ordersPerSecond = ordersPerSecondOf(answers, created);
      results.push({
        round: round + 1,
        skuId,
        created,
        statuses: Object.fromEntries(statuses),
        fiveXx: [...statuses]
          .filter(([status]) => typeof status !== 'number' || status >= 500)
          .reduce((sum, [, n]) => sum + n, 0),
        ordersPerSecond,
        bareOrdersPerSecond,
        shareOfBare: ordersPerSecond / bareOrdersPerSecond,
        requestsPerSecond: BUYERS / (elapsed / 1000),
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        shopCpuMsPerRequest: shopCpuMs / BUYERS,
        databaseCpuMsPerRequest: databaseCpu / BUYERS,
      });
      console.log(`round ${round + 1}: ${JSON.stringify(results.at(-1))}`);
    }
    if (BROWSE_SECONDS > 0) {
      browsing = await measureBrowsing(shop.url, buyers, browseSku.id, [
        '/en/',
        '/zh-cn/',
        `/en/product/${browseProduct.productId}`,
        ...otherProducts.map((product) => `/en/product/${product.id}`),
        '/v1/good/list?page=1',
      ]);
      console.log(`browsing: ${JSON.stringify(browsing)}`);
    }
  } finally {
    ceiling?.stop();
    await shop.stop();
  }

  // 4. What the database says: exactly STOCK units sold per SKU, stock at zero.
  const check = await openShopDatabase();
  for (const result of results) {
    const [sku] = await check.db
      .select({ stock: productSkus.stock })
      .from(productSkus)
      .where(eq(productSkus.id, result.skuId));
    const [sold] = await check.db
      .select({
        units: sql`coalesce(sum(${orderItems.quantity}), 0)`.mapWith(Number),
        orders: sql`count(distinct ${orders.id})`.mapWith(Number),
      })
      .from(orderItems)
      .innerJoin(orders, and(eq(orders.id, orderItems.orderId)))
      .where(eq(orderItems.skuId, result.skuId));
    result.stockLeft = sku.stock;
    result.unitsSold = sold.units;
    result.ordersInDatabase = sold.orders;
    result.ok =
      sku.stock === STOCK - EXPECTED_ORDERS &&
      sold.units === EXPECTED_ORDERS &&
      sold.orders === EXPECTED_ORDERS &&
      result.created === EXPECTED_ORDERS &&
      result.fiveXx === 0;
  }
  await check.close();
} finally {
  await benchDatabase.remove();
}

const database = benchDatabase.label;
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const machine = `${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average ${os.loadavg()[0].toFixed(1)} at the end`;
const header =
  '| round | orders created | units sold (database) | stock left | 5xx | other answers | orders/s | bare route, same burst | share of bare | p50 ms | p99 ms | shop CPU ms per request | database CPU ms per request |\n|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|';
const lines = results.map(
  (r) =>
    `| ${r.round} | ${r.created} | ${r.unitsSold} | ${r.stockLeft} | ${r.fiveXx} | ${Object.entries(r.statuses)
      .filter(([status]) => status !== '200')
      .map(([status, n]) => `${n} × ${status}`)
      .join(
        ', ',
      )} | ${Math.round(r.ordersPerSecond)} | ${Math.round(r.bareOrdersPerSecond)} | ${(r.shareOfBare * 100).toFixed(0)}% | ${Math.round(r.p50)} | ${Math.round(r.p99)} | ${r.shopCpuMsPerRequest.toFixed(2)} | ${process.env.DATABASE_URL ? r.databaseCpuMsPerRequest.toFixed(2) : '-'} |`,
);
const table = [header, ...lines].join('\n');
const browsingOk = !browsing || (browsing.ratio >= 0.8 && browsing.ordersFailed === 0 && browsing.non2xx === 0);
const browsingLine = browsing
  ? `\nBrowsing (home in two languages, 7 product pages, the product list): ${browsing.coldRps} req/s in the first 2 s (cold: pages nobody had opened since the shop started, p99 ${browsing.coldP99} ms), ${browsing.idleRps} req/s idle, ${browsing.busyRps} req/s while ${browsing.ordersPerSecond} orders/s were placed for one of the products = ${(browsing.ratio * 100).toFixed(1)}% (target 80%); p99 ${browsing.idleP99} -> ${browsing.busyP99} ms; ${browsing.ordersFailed} orders failed, ${browsing.non2xx} non-2xx pages`
  : '';
const roundsOk = results.length === ROUNDS && results.every((r) => r.ok);
const allOk = roundsOk && browsingOk;
console.log(
  `\nDatabase: ${database}\nMachine: ${machine}\n${BUYERS} buyers, ${STOCK} in stock, ${ROUNDS} rounds\n\n${table}\n\n${roundsOk ? 'OK: exactly' : 'FAILED: not exactly'} ${EXPECTED_ORDERS} orders per round, nothing oversold, no 5xx${browsingLine}${browsing ? (browsingOk ? ' (met)' : ' (NOT met)') : ''}`,
);
if (args.record) {
  fs.appendFileSync(
    'docs/benchmarks.md',
    `\n## ${new Date().toISOString().slice(0, 10)}: flash sale (bench/orders.mjs), ${database}\n\n${BUYERS} buyers order one unit each of one SKU with ${STOCK} in stock, all at once; ${ROUNDS} rounds. Machine: ${machine}\n\n${table}\n${browsingLine}\n`,
  );
  console.log('Recorded in docs/benchmarks.md');
}
process.exit(allOk ? 0 : 1);
