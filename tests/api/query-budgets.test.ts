import { beforeAll, describe, expect, it } from 'vitest';
import { tallyQueries } from '../../server/db/query-tally';
import { makeShopper, placeOrderFor, prepareSku, type Buyer } from '../support/buyers';
import { useTestServer } from '../support/test-server';

/**
 * Issue 13: private pages stay per buyer but cheap. Each page and API answer a signed-in
 * buyer opens has a budget of database statements, written out here; a change that adds one
 * (a query per order line, a lookup that could come from memory) fails here rather than in a
 * sale. Counted with the drizzle logger over `inject`, so the statements are exactly the
 * request's own, after one warm-up request (settings, shipping rules and versions are kept in
 * memory by every process).
 */
const server = useTestServer();
let buyer: Buyer & { addressId: number };
let orderId: number;
let skuId: number;
const itemsOf = (id: number) => ({ items: [{ sku_id: id, quantity: 1 }] });

beforeAll(async () => {
  buyer = await makeShopper(server);
  const sku = await prepareSku(server, { stock: 100 });
  skuId = sku.id;
  orderId = (await placeOrderFor(buyer, sku.id, 2)).id;
  await placeOrderFor(buyer, sku.id, 1);
  const added = await buyer.call('/v1/cart/items', { method: 'POST', body: { sku_id: sku.id, quantity: 1 } });
  expect(added.status).toBe(200);
});

async function statementsOf(url: string, credentials: 'cookie' | 'headers') {
  const send = () =>
    server.app.inject({
      method: 'GET',
      url,
      headers: credentials === 'headers' ? { ...buyer.headers } : { lang: 'en' },
      cookies: credentials === 'cookie' ? { access_token: buyer.headers.token } : {},
    });
  await send();
  const { result, statements } = await tallyQueries(send);
  expect(result.statusCode, `${url} answered ${result.statusCode}`).toBe(200);
  return statements;
}

const PAGE_BUDGETS: Array<[string, () => string, number]> = [
  // The session (one indexed lookup), the account menu's counts (orders by status, cases: in parallel), the profile.
  ['account', () => '/en/my/account', 4],
  ['addresses', () => '/en/my/address', 4],
  // Session, counts (2), one page of orders, their lines (one statement for all), which may ask for after-sales.
  ['My Orders', () => '/en/my/order', 6],
  // Session, counts (2), the order, its lines, duty lines, history and refunds (in parallel), its after-sale options.
  ['order detail', () => `/en/my/order/${orderId}`, 9],
  // Session, the cart's lines, their SKUs (one statement with options and images).
  ['cart', () => '/en/cart', 3],
  // Session, the address book, then the cart, its SKUs and the chosen address in one read; shipping rules and
  // rates come from memory.
  ['confirm order', () => '/en/order/confirm_order?from=cart', 3],
  // Session, the order, its lines, duty lines, history and refunds.
  ['pay', () => `/en/order/pay?order_id=${orderId}`, 6],
];

const API_BUDGETS: Array<[string, () => string, number]> = [
  // Every page asks it once for the header: session, default address, cart count.
  ['visitor', () => '/v1/visitor', 3],
  ['order list', () => '/v1/order/list?page=1&page_size=10', 3],
  ['order detail', () => `/v1/order/${orderId}`, 6],
  ['cart', () => '/v1/cart', 3],
  ['addresses', () => '/v1/useraddress/list', 2],
];

describe('database statements a signed-in buyer costs', () => {
  it.each(PAGE_BUDGETS)('the %s page stays within its budget', async (_name, path, budget) => {
    const statements = await statementsOf(path(), 'cookie');
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(budget);
  });

  it.each(API_BUDGETS)('the %s API stays within its budget', async (_name, path, budget) => {
    const statements = await statementsOf(path(), 'headers');
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(budget);
  });

  it('serves catalogue pages to a signed-in buyer without touching the database', async () => {
    for (const path of ['/en/', '/zh-cn/', '/en/product/1', '/en/faq']) {
      expect(await statementsOf(path, 'cookie'), path).toEqual([]);
    }
  });

  it('checks the session with one indexed lookup by token hash', async () => {
    const [first] = await statementsOf('/v1/visitor', 'headers');
    expect(first).toMatch(/from "sessions" inner join "users" .* where "sessions"\."token_hash" = \$1 limit \$2$/);
  });

  const placing = (headers: Record<string, string>, payload: object) =>
    server.app.inject({
      method: 'POST',
      url: '/v2/order',
      headers: { ...headers, 'content-type': 'application/json' },
      payload,
    });
  const isPlacement = (statement: string) => statement.startsWith('with "placed_order" as');
  const isQuoteRead = (statement: string) => statement.startsWith('with "requested" as');

  it('places an order in three statements: the session, one read, the placement; no BEGIN, no COMMIT', async () => {
    let attempt = 0;
    const place = () => placing({ ...buyer.headers, 'idempotency-key': `budget-${++attempt}` }, itemsOf(skuId));
    await place();
    const { result, statements } = await tallyQueries(place);
    expect(result.statusCode, result.body).toBe(200);
    expect(statements.filter((statement) => /^(begin|commit|rollback)\b/i.test(statement))).toEqual([]);
    // The SKUs, the default address and the key's order in one read; settings, rates and shipping rules are in memory.
    expect(statements.length, statements.join('\n')).toBe(3);
    expect(statements.filter(isQuoteRead)).toHaveLength(1);
    expect(statements.filter(isPlacement)).toHaveLength(1);
  });

  it("places an order from the cart in the same three: the cart's lines come with the read", async () => {
    const shopper = await makeShopper(server);
    const added = await shopper.call('/v1/cart/items', { method: 'POST', body: { sku_id: skuId, quantity: 2 } });
    expect(added.status).toBe(200);
    const { result, statements } = await tallyQueries(() =>
      placing({ ...shopper.headers, 'idempotency-key': 'budget-cart' }, { from_cart: true }),
    );
    expect(result.statusCode, result.body).toBe(200);
    expect(JSON.parse(result.body).data.items).toMatchObject([{ sku_id: skuId, quantity: 2 }]);
    expect(statements.length, statements.join('\n')).toBe(3);
  });

  it('refuses a sold-out SKU after the session and one read, with no look-up of the key', async () => {
    const soldOut = await prepareSku(server, { stock: 0 });
    const { result, statements } = await tallyQueries(() =>
      placing({ ...buyer.headers, 'idempotency-key': 'budget-sold-out' }, itemsOf(soldOut.id)),
    );
    expect(result.statusCode, result.body).toBe(409);
    expect(statements.length, statements.join('\n')).toBe(2);
    expect(statements.filter(isQuoteRead)).toHaveLength(1);
  });

  it('answers a repeated key with its order from the read, placing nothing', async () => {
    const place = () => placing({ ...buyer.headers, 'idempotency-key': 'budget-repeated' }, itemsOf(skuId));
    const first = await place();
    expect(first.statusCode, first.body).toBe(200);
    const { result, statements } = await tallyQueries(place);
    expect(result.statusCode, result.body).toBe(200);
    expect(JSON.parse(result.body).data.id).toBe(JSON.parse(first.body).data.id);
    expect(statements.filter(isPlacement), statements.join('\n')).toEqual([]);
    // Only the read asked for the key; the order's detail is then read as on its page.
    expect(statements.filter((statement) => statement.includes('"idempotency_key" = $'))).toHaveLength(1);
  });
});
