import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { orders } from '../../server/db/schema';
import { markOrderPaid } from '../../server/domains/orders/order-payment.service';
import { chinaAddress, makeBuyer, placeOrderFor, prepareSku, type Buyer } from '../support/buyers';
import { postPageForm } from '../support/page-forms';
import { useTestServer } from '../support/test-server';

/**
 * The storefront side of checkout, over HTTP as a browser without JavaScript would use it:
 * the header cart count never enters cached HTML, the checkout pages are login-only, Place
 * order is idempotent, Pay hands over to the gateway, and another buyer's order is a 404.
 */
const server = useTestServer();

const postForm = (path: string, buyer: Buyer, fields: Record<string, string>) =>
  postPageForm(server, path, buyer, fields);

function page(path: string, cookie?: string) {
  return fetch(server.url + path, { redirect: 'manual', headers: cookie ? { cookie } : {} });
}

async function buyerWithAddress() {
  const buyer = await makeBuyer(server);
  const added = await buyer.call('/v1/useraddress', { method: 'POST', body: chinaAddress });
  expect(added.body.code).toBe(200);
  return buyer;
}

describe('header cart count', () => {
  it('is never part of the cached anonymous HTML: a visitor with a cart gets the same cached page', async () => {
    const sku = await prepareSku(server, { stock: 20 });
    const path = `/en/product/${sku.productId}`;
    const first = await page(path);
    const html = await first.text();
    expect(first.status).toBe(200);
    expect(html).toContain('data-testid="header-cart"');
    expect(html).not.toContain('header-cart-count');

    // A visitor fills a cart (cookie cart), then asks for the same page: a cache hit, without a count.
    const added = await server.request('/v1/cart/items', { method: 'POST', body: { sku_id: sku.id, quantity: 3 } });
    const cartCookie = added.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith('cart_id='))!
      .split(';')[0]!;
    const again = await page(path, cartCookie);
    expect(again.headers.get('x-cache')).toBe('hit');
    const cached = await again.text();
    expect(cached).not.toContain('header-cart-count');
    expect(cached).not.toContain('Cart, 3 items');
    // The count comes from the API instead.
    const count = await fetch(`${server.url}/v1/cart/count`, { headers: { cookie: cartCookie } }).then((response) =>
      response.json(),
    );
    expect(count.data.count).toBe(3);
  });
});

describe('login-only pages', () => {
  it.each([
    '/en/my/address',
    '/en/order/confirm_order?from=cart',
    '/en/order/confirm_order?sku_id=1&quantity=1',
    '/en/order/pay?order_id=1',
    '/en/my/order',
    '/en/my/order/1',
    '/zh-cn/result/success?order_id=1',
  ])('%s answers the guard (401) to a visitor and is not cached', async (path) => {
    const response = await page(path);
    expect(response.status).toBe(401);
    expect(response.headers.get('x-cache')).toBeNull();
  });
});

describe("a visitor's cart page (no JavaScript, no login)", () => {
  /** A same-origin form post to the cart page with these cookies (a visitor's `cart_id`, maybe a session). */
  function postCart(cookie: string | undefined, fields: Record<string, string>) {
    return fetch(server.url + '/en/cart', {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: server.url,
        ...(cookie ? { cookie } : {}),
      },
      body: new URLSearchParams(fields).toString(),
    });
  }

  async function visitorCookie(skuId: number, quantity: number) {
    const added = await server.request('/v1/cart/items', { method: 'POST', body: { sku_id: skuId, quantity } });
    return added.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith('cart_id='))!
      .split(';')[0]!;
  }

  const lineCount = (html: string) => html.split('data-testid="cart-line"').length - 1;

  it('shows the lines, the total and Checkout; changes and removes them by form', async () => {
    const sku = await prepareSku(server, { stock: 10, priceMinor: 2_500 });
    const cookie = await visitorCookie(sku.id, 2);
    const shown = await page('/en/cart', cookie);
    expect(shown.status).toBe(200);
    const html = await shown.text();
    expect(lineCount(html)).toBe(1);
    expect(html).toContain('Items (2)');
    expect(html).toContain('CN¥50.00');
    expect(html).toContain('You sign in at checkout, and this cart moves to your account.');
    expect(html).toContain('href="/en/order/confirm_order?from=cart"');

    const set = await postCart(cookie, { intent: 'set', sku_id: String(sku.id), quantity: '3' });
    expect(set.status).toBe(200);
    await set.text();
    const count = await fetch(`${server.url}/v1/cart/count`, { headers: { cookie } }).then((answer) => answer.json());
    expect(count.data.count).toBe(3);
    const tooMany = await postCart(cookie, { intent: 'set', sku_id: String(sku.id), quantity: '11' });
    expect(tooMany.status).toBe(200);
    expect(await tooMany.text()).toMatch(/Only 10 left of /);

    const removed = await postCart(cookie, { intent: 'remove', sku_id: String(sku.id) });
    expect(removed.status).toBe(200);
    await removed.text();
    expect(await (await page('/en/cart', cookie)).text()).toContain('data-testid="cart-empty"');
  });

  it("cannot change another visitor's lines, and a malformed cookie is an empty cart", async () => {
    const sku = await prepareSku(server, { stock: 10 });
    const owner = await visitorCookie(sku.id, 2);
    for (const cookie of [undefined, `cart_id=${'C'.repeat(24)}`, 'cart_id=%E0%A4%A', 'cart_id=a;b']) {
      const refused = await postCart(cookie, { intent: 'set', sku_id: String(sku.id), quantity: '5' });
      expect(refused.status, cookie).toBe(200);
      expect(await refused.text(), cookie).toContain('This item is not in your cart');
      const shown = await page('/en/cart', cookie);
      expect(shown.status, cookie).toBe(200);
      expect(await shown.text(), cookie).toContain('data-testid="cart-empty"');
    }
    const count = await fetch(`${server.url}/v1/cart/count`, { headers: { cookie: owner } }).then((answer) =>
      answer.json(),
    );
    expect(count.data.count).toBe(2);
  });

  it("takes the visitor's cart into the account of a signed-in buyer who still carries its cookie", async () => {
    const buyer = await makeBuyer(server);
    const sku = await prepareSku(server, { stock: 10 });
    const cookie = await visitorCookie(sku.id, 4);
    const shown = await page('/en/cart', `${cookie}; access_token=${buyer.headers.token}`);
    expect(shown.status).toBe(200);
    expect(shown.headers.getSetCookie().find((set) => set.startsWith('cart_id='))).toMatch(/^cart_id=; /);
    const html = await shown.text();
    expect(lineCount(html)).toBe(1);
    expect(html).not.toContain('You sign in at checkout');
    expect((await buyer.call('/v1/cart/count')).body.data.count).toBe(4);
  });
});

describe('confirm order and pay (no JavaScript)', () => {
  it('prices on the server and shows the order info in both languages', async () => {
    const buyer = await buyerWithAddress();
    const sku = await prepareSku(server, { stock: 10 });
    const cookie = `access_token=${buyer.headers.token}`;
    const en = await (await page(`/en/order/confirm_order?sku_id=${sku.id}&quantity=2`, cookie)).text();
    expect(en).toContain('Product price');
    // Nothing is paid yet: the total is only a total.
    expect(en).not.toContain('Total paid');
    expect(en).toContain('Li Lei');
    const zh = await (await page(`/zh-cn/order/confirm_order?sku=${sku.id}&qty=2`, cookie)).text();
    expect(zh).not.toContain('实付金额');
    expect(zh).toContain('商品价格');
  });

  it('shows the four order-info lines every time, the discount as 0 when there is none', async () => {
    const buyer = await buyerWithAddress();
    const sku = await prepareSku(server, { stock: 10, freeShipping: true });
    const cookie = `access_token=${buyer.headers.token}`;
    const rowsOf = (html: string) => {
      const info = /<dl class="summary-list" data-testid="order-info">([\s\S]*?)<\/dl>/.exec(html)?.[1] ?? '';
      return [...info.matchAll(/<dt>([^<]*)<\/dt><dd data-testid="([\w-]+)">([\s\S]*?)<\/dd>/g)].map(
        ([, label, testId, value]) => ({ label, testId, text: value!.replace(/<[^>]+>/g, '') }),
      );
    };
    const en = rowsOf(await (await page(`/en/order/confirm_order?sku_id=${sku.id}&quantity=1`, cookie)).text());
    expect(en.map((row) => row.label)).toEqual(['Product price', 'Shipping fee', 'Discount', 'Total']);
    expect(en.find((row) => row.testId === 'order-shipping-fee')?.text).toBe('Free');
    expect(en.find((row) => row.testId === 'order-discount')?.text).toBe('CN¥0.00');
    const zh = rowsOf(await (await page(`/zh-cn/order/confirm_order?sku_id=${sku.id}&quantity=1`, cookie)).text());
    expect(zh.map((row) => row.label)).toEqual(['商品价格', '运费', '优惠', '合计']);
    expect(zh.find((row) => row.testId === 'order-discount')?.text).toBe('0.00元');
  });

  it("calls an order's total 'Amount due' until it is paid and 'Total paid' after, in the list and on the order", async () => {
    const buyer = await buyerWithAddress();
    const sku = await prepareSku(server, { stock: 10 });
    const order = await placeOrderFor(buyer, sku.id);
    const cookie = `access_token=${buyer.headers.token}`;
    const totalLabelOf = (html: string) =>
      /<div class="summary-list__total"><dt>([^<]*)<\/dt>/.exec(html)?.[1] ?? 'no total row';
    const cardLabelOf = (html: string) =>
      /<span class="order-card__total-label">([^<]*)<\/span>/.exec(html)?.[1] ?? 'no order card';

    expect(totalLabelOf(await (await page(`/en/my/order/${order.id}`, cookie)).text())).toBe('Amount due');
    expect(totalLabelOf(await (await page(`/zh-cn/my/order/${order.id}`, cookie)).text())).toBe('应付金额');
    expect(cardLabelOf(await (await page('/en/my/order', cookie)).text())).toBe('Amount due');

    expect((await markOrderPaid(server.ctx, { orderId: order.id, paymentId: `wording-${order.id}` })).outcome).toBe(
      'paid',
    );
    expect(totalLabelOf(await (await page(`/en/my/order/${order.id}`, cookie)).text())).toBe('Total paid');
    expect(totalLabelOf(await (await page(`/zh-cn/my/order/${order.id}`, cookie)).text())).toBe('实付金额');
    expect(cardLabelOf(await (await page('/zh-cn/my/order', cookie)).text())).toBe('实付金额');
  });

  it('places one order per idempotency key however often the form is posted, then redirects to pay', async () => {
    const buyer = await buyerWithAddress();
    const sku = await prepareSku(server, { stock: 10 });
    const fields = {
      sku_id: String(sku.id),
      quantity: '1',
      idempotency_key: `test-${Date.now()}-double`,
      notes: 'Leave at the door',
    };
    const answers = await Promise.all([1, 2, 3].map(() => postForm('/en/order/confirm_order', buyer, fields)));
    const targets = new Set(answers.map((answer) => answer.headers.get('location')));
    expect(answers.map((answer) => answer.status)).toEqual([302, 302, 302]);
    expect(targets.size).toBe(1);
    expect([...targets][0]).toMatch(/^\/en\/order\/pay\?order_id=\d+$/);
    const placed = await server.ctx.db.select().from(orders).where(eq(orders.userId, buyer.id));
    expect(placed).toHaveLength(1);
    expect(placed[0]?.notes).toBe('Leave at the door');
  });

  it('answers a refusal (not enough stock) as a message on the page, not an error page', async () => {
    const buyer = await buyerWithAddress();
    const sku = await prepareSku(server, { stock: 1 });
    const answer = await postForm('/en/order/confirm_order', buyer, {
      sku_id: String(sku.id),
      quantity: '5',
      idempotency_key: `test-${Date.now()}-stock`,
    });
    expect(answer.status).toBe(200);
    expect(await server.ctx.db.select().from(orders).where(eq(orders.userId, buyer.id))).toHaveLength(0);
  });

  it('hands Pay over to the sandbox payment page, and shows another buyer’s order as not found', async () => {
    const buyer = await buyerWithAddress();
    const sku = await prepareSku(server, { stock: 10 });
    const placed = await postForm('/en/order/confirm_order', buyer, {
      sku_id: String(sku.id),
      quantity: '1',
      idempotency_key: `test-${Date.now()}-pay`,
    });
    const payPath = placed.headers.get('location')!;
    const pay = await postForm(payPath, buyer, {});
    expect([302, 303]).toContain(pay.status);
    expect(pay.headers.get('location')).toMatch(/\/sandbox-gateway\/checkout\/cs_sbx_/);

    const stranger = await makeBuyer(server);
    const orderId = new URL(payPath, server.url).searchParams.get('order_id');
    const cookie = `access_token=${stranger.headers.token}`;
    expect((await page(`/en/my/order/${orderId}`, cookie)).status).toBe(404);
    expect((await page(`/en/order/pay?order_id=${orderId}`, cookie)).status).toBe(404);
    expect((await postForm(`/en/my/order/${orderId}`, stranger, { intent: 'cancel' })).status).toBe(404);
    const [row] = await server.ctx.db
      .select()
      .from(orders)
      .where(eq(orders.id, Number(orderId)));
    expect(row?.status).toBe(1);
  });

  it('cancels from the order page and says so in the page language', async () => {
    const buyer = await buyerWithAddress();
    const sku = await prepareSku(server, { stock: 10 });
    const placed = await postForm('/zh-cn/order/confirm_order', buyer, {
      sku_id: String(sku.id),
      quantity: '1',
      idempotency_key: `test-${Date.now()}-cancel`,
    });
    const orderId = new URL(placed.headers.get('location')!, server.url).searchParams.get('order_id');
    const cancelled = await postForm(`/zh-cn/my/order/${orderId}`, buyer, { intent: 'cancel' });
    expect(cancelled.status).toBe(200);
    const [row] = await server.ctx.db
      .select()
      .from(orders)
      .where(eq(orders.id, Number(orderId)));
    expect(row?.status).toBe(60);
    const detail = await (await page(`/zh-cn/my/order/${orderId}`, `access_token=${buyer.headers.token}`)).text();
    expect(detail).toContain('订单已取消');
  });
});

describe('page forms take a closed set of intents', () => {
  it('the cart form sets and removes a line; any other intent is a 400 and changes nothing', async () => {
    const buyer = await makeBuyer(server);
    const sku = await prepareSku(server, { stock: 10 });
    const added = await buyer.call('/v1/cart/items', { method: 'POST', body: { sku_id: sku.id, quantity: 1 } });
    expect(added.body.code).toBe(200);
    const set = await postForm('/en/cart', buyer, { intent: 'set', sku_id: String(sku.id), quantity: '2' });
    expect(set.status).toBe(200);
    await set.text();
    const count = await buyer.call('/v1/cart/count');
    expect(count.body.data.count).toBe(2);
    for (const intent of ['add', 'SET', '']) {
      const refused = await postForm('/en/cart', buyer, { intent, sku_id: String(sku.id), quantity: '5' });
      expect(refused.status, intent).toBe(400);
      await refused.text();
    }
    expect((await buyer.call('/v1/cart/count')).body.data.count).toBe(2);
    const removed = await postForm('/en/cart', buyer, { intent: 'remove', sku_id: String(sku.id) });
    expect(removed.status).toBe(200);
    await removed.text();
    expect((await buyer.call('/v1/cart/count')).body.data.count).toBe(0);
  });

  it("the cart form refuses a quantity over 99 with the API's message instead of changing it", async () => {
    const buyer = await makeBuyer(server);
    const sku = await prepareSku(server, { stock: 500 });
    await buyer.call('/v1/cart/items', { method: 'POST', body: { sku_id: sku.id, quantity: 1 } });
    const answer = await postForm('/en/cart', buyer, { intent: 'set', sku_id: String(sku.id), quantity: '150' });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('Quantity must be at most 99');
    expect((await buyer.call('/v1/cart/count')).body.data.count).toBe(1);
  });

  it('the order page cancels or confirms receipt; any other intent is a 400 and changes nothing', async () => {
    const buyer = await buyerWithAddress();
    const sku = await prepareSku(server, { stock: 10 });
    const placed = await postForm('/en/order/confirm_order', buyer, {
      sku_id: String(sku.id),
      quantity: '1',
      idempotency_key: `test-${Date.now()}-intent`,
    });
    const orderId = new URL(placed.headers.get('location')!, server.url).searchParams.get('order_id');
    const refused = await postForm(`/en/my/order/${orderId}`, buyer, { intent: 'refund' });
    expect(refused.status).toBe(400);
    await refused.text();
    const [row] = await server.ctx.db
      .select()
      .from(orders)
      .where(eq(orders.id, Number(orderId)));
    expect(row?.status).toBe(1);
  });

  it('the address form saves; an intent it does not know is a 400', async () => {
    const buyer = await makeBuyer(server);
    const fields = Object.fromEntries(Object.entries(chinaAddress).map(([key, value]) => [key, String(value)]));
    const refused = await postForm('/en/my/address', buyer, { ...fields, intent: 'create' });
    expect(refused.status).toBe(400);
    await refused.text();
    expect((await buyer.call('/v1/useraddress/list')).body.data).toHaveLength(0);
    const saved = await postForm('/en/my/address', buyer, { ...fields, intent: 'save' });
    expect(saved.status).toBe(200);
    await saved.text();
    expect((await buyer.call('/v1/useraddress/list')).body.data).toHaveLength(1);
  });
});
