// `npm run bench -- --only=console` (or `npm run bench:console`): the console at scale. Generates
// --orders=100000 orders with one SQL generate_series insert (lines and captured payments
// included), signs in an Owner, then asks the admin API, through the built shop, for the
// orders list with filters and for order details, and prints p50/p95/p99. The target is a
// p95 under 200 ms on PostgreSQL. It also prints EXPLAIN of the filtered list query, to show
// the indexes it reads.
//   DATABASE_URL=postgres://... npm run bench:console     PostgreSQL (a fresh database, dropped after)
//   npm run bench:console                                 embedded PGlite
// Options: --orders=100000 --requests=200 (per query shape) --concurrency=4 --record (appends to docs/benchmarks.md)
import fs from 'node:fs';
import os from 'node:os';
import { eq, sql } from 'drizzle-orm';
import { migrateDatabase } from '../server/db/client.ts';
import { staffMemberRoles, staffMembers, staffRoles } from '../server/db/schema/index.ts';
import { adminOrderListQueries } from '../server/domains/orders/admin-orders.service.ts';
import { adminOrderListQuery } from '../server/domains/orders/admin-orders.schemas.ts';
import { createStaffSession } from '../server/domains/staff/staff-sessions.service.ts';
import { createBenchDatabase } from './lib/bench-database.mjs';
import { ensureBuilt, startBuiltShop } from './lib/processes.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? 'true'];
  }),
);
const ORDERS = Number(args.orders ?? 100_000);
const REQUESTS = Number(args.requests ?? 200);
const CONCURRENCY = Number(args.concurrency ?? 4);
const TARGET_P95_MS = 200;
const SESSION_SECRET = 'bench-console-secret-'.padEnd(48, 'x');

ensureBuilt();
const benchDatabase = await createBenchDatabase('console');
const { dataDir, databaseUrl } = benchDatabase;
const serverEnv = {
  SESSION_SECRET,
  ORDER_SWEEP_INTERVAL_SECONDS: '0',
  ...benchDatabase.serverEnv,
};
const openShopDatabase = benchDatabase.open;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * 1,000 buyers and ORDERS orders over the last 365 days: statuses, pay statuses and
 * countries spread as a small shop's are, one or two lines each, a captured payment for
 * every paid one. One statement per table, so 100,000 orders take seconds, not minutes.
 */
async function generateOrders(db) {
  await db.execute(sql`
    insert into users (email, username)
    select 'bench-console-' || n || '@example.com', 'bench_console_' || n from generate_series(1, 1000) n`);
  const started = Date.now();
  await db.execute(sql`
    insert into orders (order_no, user_id, status, pay_status, locale, currency, goods_amount_minor,
      shipping_fee_minor, discount_minor, total_minor, display_currency, display_rate_micros,
      display_total_minor, address, payment_deadline, paid_at, created_at, updated_at)
    select '20' || lpad(n::text, 10, '0'),
      (select min(id) from users where email like 'bench-console-%') + (n % 1000),
      s.status, case when s.status = 1 then 1 when s.status = 60 then 3 else 2 end,
      case when n % 3 = 0 then 'en' else 'zh-cn' end, 'CNY',
      1000 + (n * 37) % 90000, 1000, 0, 2000 + (n * 37) % 90000, 'CNY', 1000000, 2000 + (n * 37) % 90000,
      jsonb_build_object(
        'country_code', (array['CN','US','GB','DE','JP','FR','CA','AU'])[1 + n % 8],
        'country_name', jsonb_build_object('en', 'Country', 'zh-cn', '国家'),
        'province_id', null, 'province_name', jsonb_build_object('en', 'Province', 'zh-cn', '省'),
        'city_id', null, 'city_name', jsonb_build_object('en', 'City', 'zh-cn', '市'),
        'detail', n || ' Bench Road', 'postal_code', '100000',
        'contact_name', 'Buyer ' || n, 'contact_phone', '+8613800000000'),
      t.created + interval '30 minutes',
      case when s.status in (1, 60) then null else t.created + interval '5 minutes' end,
      t.created, t.created
    from generate_series(1, ${ORDERS}) n
    cross join lateral (select now() - (n::double precision / ${ORDERS}) * interval '365 days' as created) t
    cross join lateral (select (array[70,70,70,30,20,20,10,10,1,60,41])[1 + n % 11] as status) s`);
  await db.execute(sql`
    insert into order_items (order_id, product_id, sku_id, sku_code, product_name, sku_properties, image,
      unit_price_minor, quantity, line_total_minor, weight_grams)
    select o.id, 1, 1, 'BENCH-SKU-' || k, jsonb_build_object('en', 'Bench tea', 'zh-cn', '测试茶'), '[]'::jsonb, null,
      o.goods_amount_minor, 1, o.goods_amount_minor, 250
    from orders o cross join generate_series(1, 2) k
    where o.order_no like '20%' and (k = 1 or o.id % 2 = 0)`);
  await db.execute(sql`
    insert into order_status_history (order_id, from_status, to_status, pay_status, actor, note, created_at)
    select id, null, 1, 1, 'buyer', 'order.history.placed', created_at from orders where order_no like '20%'`);
  await db.execute(sql`
    insert into payments (order_id, user_id, provider, method, provider_ref, charge_ref, amount_minor, currency,
      charged_amount_minor, charged_currency, status, paid_at)
    select id, user_id, 'sandbox', 'sandbox', 'cs_bench_' || id, 'cs_bench_' || id, total_minor, 'CNY',
      total_minor, 'CNY', 'succeeded', paid_at
    from orders where order_no like '20%' and paid_at is not null`);
  await db.execute(sql`analyze`);
  return Date.now() - started;
}

/** A signed-in Owner (two-step sign-in enrolled, as the role requires). */
async function signedInOwner(db) {
  const [member] = await db
    .insert(staffMembers)
    .values({
      email: 'bench-owner@example.com',
      name: 'Bench Owner',
      passwordHash: 'scrypt$unused',
      locale: 'en',
      totpEnabledAt: new Date(),
    })
    .returning({ id: staffMembers.id });
  const [owner] = await db.select({ id: staffRoles.id }).from(staffRoles).where(eq(staffRoles.key, 'owner'));
  await db.insert(staffMemberRoles).values({ staffId: member.id, roleId: owner.id });
  const session = await createStaffSession({ db }, member.id, { ip: '127.0.0.1', userAgent: 'bench' });
  return `staff_session=${session.token}`;
}

/** Latencies of REQUESTS requests over `paths` (cycled), CONCURRENCY at a time. */
async function timeRequests(url, paths, cookie) {
  const timings = [];
  let next = 0;
  let failures = 0;
  const worker = async () => {
    while (next < REQUESTS) {
      const path = paths[next++ % paths.length];
      const start = performance.now();
      const answer = await fetch(url + path, { headers: { cookie, lang: 'en' } });
      await answer.arrayBuffer();
      timings.push(performance.now() - start);
      if (answer.status !== 200) failures++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const sorted = timings.sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), failures };
}

const LIST_SHAPES = [
  { name: 'orders list, newest first', query: '' },
  { name: 'orders list, status 10', query: 'status=10' },
  { name: 'orders list, paid, US, a month', query: 'pay_status=2&country=US&from=__FROM__&to=__TO__' },
  { name: 'orders list, sorted by total', query: 'sort=total&dir=desc&status=70' },
  { name: 'orders list, search by order number', query: 'q=200000054321' },
  { name: 'orders list, search by buyer email', query: 'q=bench-console-42%40' },
];

const results = [];
let explained = '';
let generatedMs;
let shop;
try {
  shop = await startBuiltShop({ dataDir, env: serverEnv });
  await shop.stop();
  const handle = await openShopDatabase();
  await migrateDatabase(handle);
  generatedMs = await generateOrders(handle.db);
  const cookie = await signedInOwner(handle.db);
  const today = new Date();
  const monthAgo = new Date(today.getTime() - 30 * 86_400_000);
  const fill = (query) =>
    query.replace('__FROM__', monthAgo.toISOString().slice(0, 10)).replace('__TO__', today.toISOString().slice(0, 10));

  // EXPLAIN of the filtered list's two queries, as the service builds them.
  const filtered = adminOrderListQuery.parse(Object.fromEntries(new URLSearchParams(fill(LIST_SHAPES[2].query))));
  for (const query of Object.values(adminOrderListQueries({ db: handle.db }, filtered))) {
    const { sql: text, params } = query.toSQL();
    const plan = await handle.db.execute(
      sql.raw(`explain (analyze, costs off, timing off, summary off) ${inline(text, params)}`),
    );
    explained += `${(plan.rows ?? plan).map((row) => row['QUERY PLAN']).join('\n')}\n\n`;
  }
  const [{ lo, hi }] =
    (await handle.db.execute(sql`select min(id) as lo, max(id) as hi from orders where order_no like '20%'`)).rows ??
    [];
  await handle.close();

  shop = await startBuiltShop({ dataDir, env: serverEnv });
  const detailPaths = Array.from(
    { length: 50 },
    (_, i) => `/v1/admin/orders/${Number(lo) + Math.floor(((Number(hi) - Number(lo)) * ((i * 7919) % 50)) / 50)}`,
  );
  // Warm-up: the first requests open connections and compile code paths.
  await timeRequests(shop.url, ['/v1/admin/orders', detailPaths[0]], cookie);
  for (const shape of LIST_SHAPES) {
    const path = `/v1/admin/orders?${fill(shape.query)}`;
    results.push({ name: shape.name, path, ...(await timeRequests(shop.url, [path], cookie)) });
  }
  results.push({
    name: 'order detail (50 orders)',
    path: '/v1/admin/orders/:id',
    ...(await timeRequests(shop.url, detailPaths, cookie)),
  });
  results.push({
    name: 'dashboard',
    path: '/v1/admin/dashboard',
    ...(await timeRequests(shop.url, ['/v1/admin/dashboard'], cookie)),
  });
} finally {
  await shop?.stop();
  await benchDatabase.remove();
}

/** Puts the bound values into the statement text, for EXPLAIN (which takes no parameters here). */
function inline(text, params) {
  return text.replace(/\$(\d+)/g, (_whole, index) => {
    const value = params[Number(index) - 1];
    if (value === null || value === undefined) return 'null';
    if (typeof value === 'number') return String(value);
    if (value instanceof Date) return `'${value.toISOString()}'`;
    return `'${String(value).replace(/'/g, "''")}'`;
  });
}

const database = benchDatabase.label;
const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const table = [
  '| request | p50 ms | p95 ms | p99 ms | p95 < 200 ms | non-200 |',
  '|---|---:|---:|---:|---|---:|',
  ...results.map(
    (r) =>
      `| ${r.name} (\`${r.path}\`) | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.p95 < TARGET_P95_MS ? 'yes' : 'no'} | ${r.failures} |`,
  ),
].join('\n');
const summary = `Database: ${database}; ${ORDERS.toLocaleString('en')} generated orders (${(generatedMs / 1000).toFixed(1)} s to generate); ${REQUESTS} requests per row, ${CONCURRENCY} at a time, as a signed-in Owner\nMachine: ${machine}; load average ${os.loadavg()[0].toFixed(1)}; ${new Date().toISOString()}`;
console.log(
  `\n${summary}\n\n${table}\n\nEXPLAIN ANALYZE of the filtered list (pay status 2, US, 30 days), page and count:\n\n${explained}`,
);
if (args.record) {
  fs.appendFileSync(
    'docs/benchmarks.md',
    `\n## ${new Date().toISOString().slice(0, 10)}: console at scale, ${database}\n\n${summary}\n\n${table}\n\nPlan of the filtered list (page query, then count):\n\n\`\`\`\n${explained.trim()}\n\`\`\`\n`,
  );
  console.log('Recorded in docs/benchmarks.md');
}
const missed = results.filter((r) => r.p95 >= TARGET_P95_MS || r.failures > 0);
if (databaseUrl && missed.length) process.exitCode = 1;
