import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { orders, productSkus, userAddresses, users } from '../../server/db/schema';
import { tallyQueries } from '../../server/db/query-tally';
import { PERMISSIONS } from '../../server/domains/staff/permissions';
import { makeShopper, placeOrderFor, prepareSku, type Buyer } from '../support/buyers';
import { createSignedInStaff } from '../support/staff';
import { afterSaleSku, orderAt } from './after-sales-fixtures';
import { useTestServer } from '../support/test-server';

/**
 * Issue 13, ADR 0095: a buyer's account pages are kept for their session while
 * users.pages_version stands still, and database triggers move it on every change those pages
 * show, whoever makes it. These tests read pages the way a browser does (session, CSRF and
 * language cookies), and check what a buyer sees, not only the cache header.
 */
const server = useTestServer();
let first: Buyer & { addressId: number };
let second: Buyer & { addressId: number };
let skuId: number;

beforeAll(async () => {
  first = await makeShopper(server);
  second = await makeShopper(server);
  skuId = (await prepareSku(server, { stock: 100 })).id;
});

function browserCookies(buyer: Buyer, extra: Record<string, string> = {}) {
  return { access_token: buyer.headers.token, csrf_token: 'csrf-of-this-browser', lang: 'en', ...extra };
}

async function open(buyer: Buyer, url: string, cookies: Record<string, string> = browserCookies(buyer)) {
  const response = await server.app.inject({ method: 'GET', url, cookies, headers: { 'accept-encoding': 'identity' } });
  return {
    status: response.statusCode,
    cache: response.headers['x-cache'],
    headers: response.headers,
    html: response.body,
  };
}

async function pagesVersionOf(userId: number): Promise<number> {
  const [row] = await server.ctx.db.select({ version: users.pagesVersion }).from(users).where(eq(users.id, userId));
  return row!.version;
}

describe('account pages kept per session', () => {
  it('answers a repeat of My Orders from memory, private and unchanged, for one statement', async () => {
    const order = await placeOrderFor(first, skuId, 1);
    const fresh = await open(first, '/en/my/order');
    expect(fresh.status).toBe(200);
    expect(fresh.cache).toBe('private-miss');
    expect(fresh.html).toContain(order.order_no);

    const { result, statements } = await tallyQueries(() => open(first, '/en/my/order'));
    expect(result.cache).toBe('private-hit');
    expect(result.html).toBe(fresh.html);
    expect(result.headers['cache-control']).toBe('private, no-store');
    expect(statements).toHaveLength(1);
  });

  it("shows the buyer's own new order at once", async () => {
    await open(first, '/en/my/order');
    const order = await placeOrderFor(first, skuId, 2);
    const after = await open(first, '/en/my/order');
    expect(after.cache).toBe('private-miss');
    expect(after.html).toContain(order.order_no);
  });

  it('shows a change made outside any request of the buyer (a job, the console) at once', async () => {
    const order = await placeOrderFor(first, skuId, 1);
    const before = await open(first, `/en/my/order/${order.id}`);
    expect(before.html).not.toContain('Order cancelled');
    await open(first, `/en/my/order/${order.id}`);

    // What the unpaid-order sweep does: a plain update of the order row.
    await server.ctx.db.update(orders).set({ status: 60, cancelledAt: new Date() }).where(eq(orders.id, order.id));
    const after = await open(first, `/en/my/order/${order.id}`);
    expect(after.cache).toBe('private-miss');
    expect(after.html).toContain('Order cancelled');
  });

  it('never hands one buyer the page kept for another, nor to a session that ended', async () => {
    const order = await placeOrderFor(first, skuId, 1);
    await open(first, '/en/my/order');
    expect((await open(first, '/en/my/order')).cache).toBe('private-hit');

    const other = await open(second, '/en/my/order');
    expect(other.cache).toBe('private-miss');
    expect(other.html).not.toContain(order.order_no);

    const logout = await first.call('/v1/user/logout', { method: 'POST', body: {} });
    expect(logout.status).toBe(200);
    const ended = await open(first, '/en/my/order');
    expect(ended.cache).toBeUndefined();
    expect(ended.html).not.toContain(order.order_no);
  });

  it('keeps a copy per language, colour mode and display currency, and none for unknown query parameters', async () => {
    const buyer = await makeShopper(server);
    await placeOrderFor(buyer, skuId, 1);
    await open(buyer, '/en/my/order');
    const dark = await open(buyer, '/en/my/order', browserCookies(buyer, { color_mode: 'dark' }));
    expect(dark.cache).toBe('private-miss');
    const chinese = await open(buyer, '/zh-cn/my/order', browserCookies(buyer, { lang: 'zh-cn' }));
    expect(chinese.cache).toBe('private-miss');
    expect(chinese.html).toContain('我的订单');
    expect((await open(buyer, '/en/my/order?utm_source=mail')).cache).toBeUndefined();
    expect((await open(buyer, '/en/my/order?status=unpaid')).cache).toBe('private-miss');
    expect((await open(buyer, '/en/my/order?status=unpaid')).cache).toBe('private-hit');
  });

  it('renders the after-sale request form afresh every time: its one-time key is never handed out twice', async () => {
    const owner = await createSignedInStaff(server, { permissions: PERMISSIONS, refundLimitMinor: null });
    const received = await orderAt(server, owner, {
      lines: [{ sku: await afterSaleSku(server, 4_500), quantity: 1 }],
      stage: 'received',
    });
    const path = `/en/my/order/${received.orderId}/after-sale`;
    const views = [await open(received.buyer, path), await open(received.buyer, path)];
    expect(views.map((view) => [view.status, view.cache])).toEqual([
      [200, undefined],
      [200, undefined],
    ]);
    const keyIn = (html: string) => /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(html)?.[0];
    expect(keyIn(views[0]!.html)).toBeDefined();
    expect(keyIn(views[0]!.html)).not.toBe(keyIn(views[1]!.html));
  });

  it('renders afresh when the answer must set a cookie (a first visit of the browser)', async () => {
    const withoutCsrf = await open(second, '/en/my/address', { access_token: second.headers.token, lang: 'en' });
    expect(withoutCsrf.status).toBe(200);
    expect(withoutCsrf.cache).toBeUndefined();
  });
});

describe('users.pages_version', () => {
  it('moves when an order, its lines, an address or the buyer row change, and not for other buyers', async () => {
    const buyer = await makeShopper(server);
    const bystander = await pagesVersionOf(second.id);

    let version = await pagesVersionOf(buyer.id);
    const order = await placeOrderFor(buyer, skuId, 1);
    // Once for the whole checkout (order, line, duty lines, history), not once per row written.
    expect(await pagesVersionOf(buyer.id)).toBe(version + 1);

    version = await pagesVersionOf(buyer.id);
    const bystanderBefore = await pagesVersionOf(second.id);
    await server.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`update orders set notes = 'one' where id = ${order.id}`);
      await tx.execute(sql`update order_items set quantity = quantity where order_id = ${order.id}`);
      await tx.execute(sql`update user_addresses set detail = detail where user_id = ${buyer.id}`);
    });
    expect(await pagesVersionOf(buyer.id)).toBe(version + 1);
    expect(await pagesVersionOf(second.id)).toBe(bystanderBefore);

    version = await pagesVersionOf(buyer.id);
    await server.ctx.db.execute(sql`update order_items set quantity = quantity where order_id = ${order.id}`);
    expect(await pagesVersionOf(buyer.id)).toBeGreaterThan(version);

    version = await pagesVersionOf(buyer.id);
    await server.ctx.db.delete(userAddresses).where(eq(userAddresses.id, buyer.addressId));
    expect(await pagesVersionOf(buyer.id)).toBeGreaterThan(version);

    version = await pagesVersionOf(buyer.id);
    await server.ctx.db.update(users).set({ avatar: 'avatars/new.png' }).where(eq(users.id, buyer.id));
    expect(await pagesVersionOf(buyer.id)).toBe(version + 1);

    expect(await pagesVersionOf(second.id)).toBe(bystander);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('users.pages_version under concurrent writers (PostgreSQL)', () => {
  it("moves at commit, so a batch over several buyers and one buyer's checkout never deadlock", async () => {
    // The order sweep's shape: buyer A's order, then stock, then buyer B's order, in one
    // transaction; meanwhile B's checkout writes B's order, then the same stock. Had the buyer
    // row been locked at each write, each would wait for the other.
    const [a, b] = [await makeShopper(server), await makeShopper(server)];
    const stock = await prepareSku(server, { stock: 100 });
    const orderOfA = (await placeOrderFor(a, stock.id, 1)).id;
    const [firstOfB, secondOfB] = [(await placeOrderFor(b, stock.id, 1)).id, (await placeOrderFor(b, stock.id, 1)).id];
    const before = await pagesVersionOf(b.id);
    const gate = () => {
      let open = () => {};
      const opened = new Promise<void>((resolve) => (open = resolve));
      return { open, opened };
    };
    const batchHoldsStock = gate();
    const checkoutWroteOrder = gate();
    const takeOne = sql`${productSkus.stock} - 1`;

    const batch = server.ctx.db.transaction(async (tx) => {
      await tx.update(orders).set({ notes: 'batch' }).where(eq(orders.id, orderOfA));
      await tx.update(productSkus).set({ stock: takeOne }).where(eq(productSkus.id, stock.id));
      batchHoldsStock.open();
      await checkoutWroteOrder.opened;
      await tx.update(orders).set({ notes: 'batch' }).where(eq(orders.id, firstOfB));
    });
    const checkout = batchHoldsStock.opened.then(() =>
      server.ctx.db.transaction(async (tx) => {
        await tx.update(orders).set({ notes: 'checkout' }).where(eq(orders.id, secondOfB));
        checkoutWroteOrder.open();
        await tx.update(productSkus).set({ stock: takeOne }).where(eq(productSkus.id, stock.id));
      }),
    );

    await expect(Promise.all([batch, checkout])).resolves.toBeDefined();
    expect(await pagesVersionOf(b.id)).toBe(before + 2);
  });
});
