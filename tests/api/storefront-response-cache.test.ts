import net from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { markPersonal } from '../../server/context';
import { markOrderPaid } from '../../server/domains/orders/order-payment.service';
import { bumpContentVersion } from '../../server/shared/content-version';
import { makeShopper, placeOrderFor, prepareSku } from '../support/buyers';
import { cacheOnlyApp, listenLocally } from '../support/cache-only-app';
import { rawGet as rawHttpGet } from '../support/raw-http';
import { useTestServer } from '../support/test-server';

const server = useTestServer();

function rawGet(path: string, headers: Record<string, string> = {}) {
  return rawHttpGet(server.url + path, headers);
}

async function hit(path: string, headers: Record<string, string> = {}) {
  await rawGet(path, headers);
  const response = await rawGet(path, headers);
  expect(response.headers['x-cache']).toBe('hit');
  return response;
}

describe('cache hits answered before Fastify', () => {
  it('send the same page in every encoding, with a correct length and the protective headers', async () => {
    const path = '/en/faq?page=101';
    const identity = await hit(path);
    const gzip = await rawGet(path, { 'accept-encoding': 'gzip, deflate' });
    const brotli = await rawGet(path, { 'accept-encoding': 'gzip, deflate, br' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(gunzipSync(gzip.body).equals(identity.body)).toBe(true);
    expect(brotliDecompressSync(brotli.body).equals(identity.body)).toBe(true);
    for (const response of [identity, gzip, brotli]) {
      expect(Number(response.headers['content-length'])).toBe(response.body.length);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers.vary).toBe('Cookie, Accept-Encoding');
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-request-id']).toMatch(/^[\w-]{36}$/);
    }
    expect(identity.body.toString()).toContain('</html>');
  });

  it('keep an upstream request id and answer 304 to a matching ETag', async () => {
    const path = '/en/faq?page=102';
    const first = await hit(path, { 'x-request-id': 'edge-42' });
    expect(first.headers['x-request-id']).toBe('edge-42');
    const revalidated = await rawGet(path, { 'if-none-match': first.headers.etag! });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect(revalidated.headers.etag).toBe(first.headers.etag);
  });

  it('give every hit its own request id, and a 304 too, while reusing the header lists', async () => {
    const path = '/v1/good/list?page_size=3';
    const upstream = await hit(path, { 'x-request-id': 'edge-43' });
    expect(upstream.headers['x-request-id']).toBe('edge-43');
    const [first, second] = [await rawGet(path), await rawGet(path)];
    const revalidated = await rawGet(path, { 'if-none-match': upstream.headers.etag! });
    expect(revalidated.status).toBe(304);
    const ids = [first, second, revalidated].map((response) => response.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(/^[\w-]{36}$/);
    expect(new Set(ids).size).toBe(3);
    for (const response of [first, second, revalidated]) {
      expect(response.headers['x-cache']).toBe('hit');
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    // A page hit that hands out cookies must not leave them in the list the next hit sends.
    const page = '/en/faq?page=103';
    const withCookies = await hit(page);
    expect(withCookies.headers['set-cookie']).toHaveLength(2);
    const returning = await rawGet(page, {
      cookie: withCookies.headers['set-cookie']!.map((cookie) => cookie.split(';')[0]).join('; '),
    });
    expect(returning.headers['x-cache']).toBe('hit');
    expect(returning.headers['set-cookie']).toBeUndefined();
    expect(returning.headers['x-request-id']).not.toBe(withCookies.headers['x-request-id']);
  });

  it('pick the API language from Accept-Language on every hit', async () => {
    const path = '/v1/good/list?page_size=4';
    const english = await hit(path, { 'accept-language': 'en-US,en;q=0.9' });
    const chinese = await hit(path, { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.5' });
    const englishAgain = await rawGet(path, { 'accept-language': 'en-US,en;q=0.9' });
    expect(english.body.equals(chinese.body)).toBe(false);
    expect(englishAgain.headers['x-cache']).toBe('hit');
    expect(englishAgain.body.equals(english.body)).toBe(true);
  });

  it('hand every visitor their own cookies and never cache them', async () => {
    const path = '/zh-cn/faq?page=104';
    const first = await hit(path);
    const second = await rawGet(path);
    const tokenOf = (response: typeof first) =>
      (response.headers['set-cookie'] ?? []).find((cookie) => cookie.startsWith('csrf_token='))?.split(/[=;]/)[1];
    expect(tokenOf(first)).toMatch(/^[0-9a-f]{32}$/);
    expect(tokenOf(second)).toMatch(/^[0-9a-f]{32}$/);
    expect(tokenOf(first)).not.toBe(tokenOf(second));
    expect(first.body.toString()).not.toContain(tokenOf(first)!);
    expect(first.headers['set-cookie']).toContainEqual(
      expect.stringMatching(/^lang=zh-cn; Path=\/; Max-Age=31536000; SameSite=Lax$/),
    );
    const returning = await rawGet(path, { cookie: `lang=zh-cn; csrf_token=${tokenOf(first)}` });
    expect(returning.headers['x-cache']).toBe('hit');
    expect(returning.headers['set-cookie']).toBeUndefined();
  });

  it('serve a signed-in visitor the shared catalogue page, but never a login-only page', async () => {
    const path = '/en/faq?page=105';
    await hit(path);
    const signedIn = await rawGet(path, { cookie: 'access_token=not-a-real-session' });
    expect(signedIn.headers['x-cache']).toBe('hit');
    const account = await rawGet('/en/my/account', { cookie: 'access_token=not-a-real-session' });
    expect(account.headers['x-cache']).toBeUndefined();
  });

  it('keep API languages apart and stop when the content version moves', async () => {
    const english = await hit('/v1/goodGroup/list/2', { lang: 'en' });
    const chinese = await hit('/v1/goodGroup/list/2', { lang: 'zh-cn' });
    expect(english.body.equals(chinese.body)).toBe(false);
    expect(english.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(english.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    await bumpContentVersion(server.ctx);
    const after = await rawGet('/v1/goodGroup/list/2', { lang: 'en' });
    expect(after.headers['x-cache']).toBe('miss');
  });
});

describe('orders and the cache', () => {
  // Only the clock is frozen (timers stay real), so "the same second" is exact on a slow machine.
  afterEach(() => vi.useRealTimers());

  it('an order or a payment retires the pages of the products it sold, at most once a second, and the listings only when a SKU sells out', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const buyer = await makeShopper(server);
    const sold = await prepareSku(server, { stock: 4 });
    const other = await prepareSku(server, { stock: 3 });
    const soldPages = [
      `/en/product/${sold.productId}`,
      `/en/product/${sold.productId}.data`,
      `/v1/good/${sold.productId}`,
    ];
    const untouched = [`/en/product/${other.productId}`, `/v1/good/${other.productId}`, '/en', '/v1/good/list?page=1'];
    const cacheStates = async (paths: string[]) =>
      Promise.all(paths.map(async (path) => (await rawGet(path, { lang: 'en' })).headers['x-cache']));
    const stockShown = async () =>
      JSON.parse((await rawGet(`/v1/good/${sold.productId}`, { lang: 'en' })).body.toString()).data.good_sku.find(
        (sku: { id: number }) => sku.id === sold.id,
      ).stock;
    for (const path of [...soldPages, ...untouched]) await hit(path, { lang: 'en' });

    const order = await placeOrderFor(buyer, sold.id);
    expect(await cacheStates(soldPages)).toEqual(['miss', 'miss', 'miss']);
    expect(await cacheStates(untouched)).toEqual(['hit', 'hit', 'hit', 'hit']);
    expect(await stockShown()).toBe(3);

    // Within the same second (a sale), another order and a payment leave the pages as they are ...
    await placeOrderFor(buyer, sold.id);
    expect((await markOrderPaid(server.ctx, { orderId: order.id, paymentId: 'cache-test' })).outcome).toBe('paid');
    expect(await cacheStates(soldPages)).toEqual(['hit', 'hit', 'hit']);
    expect(await stockShown()).toBe(3);
    // ... and a second later they show both.
    vi.setSystemTime(Date.now() + 1_000);
    expect(await cacheStates(soldPages)).toEqual(['miss', 'miss', 'miss']);
    expect(await stockShown()).toBe(2);
    expect(await cacheStates(untouched)).toEqual(['hit', 'hit', 'hit', 'hit']);

    // The last two: the SKU sells out, and the listings' sold-out badges change, so every page is retired at once.
    await placeOrderFor(buyer, sold.id, 2);
    expect(await cacheStates([...soldPages, ...untouched])).toEqual(Array(7).fill('miss'));
  });
});

describe('the front door', () => {
  it('answers a hit without running any Fastify hook or handler', async () => {
    const app = cacheOnlyApp();
    let hooks = 0;
    let handled = 0;
    app.addHook('onRequest', async () => {
      hooks += 1;
    });
    app.get('/v1/thing', { config: { publicCache: true } }, async () => {
      handled += 1;
      return { code: 200, msg: 'ok', data: 'x'.repeat(2000) };
    });
    const url = `${await listenLocally(app)}/v1/thing`;
    try {
      const first = await fetch(url);
      const second = await fetch(url);
      const third = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
      expect(first.headers.get('x-cache')).toBe('miss');
      expect(second.headers.get('x-cache')).toBe('hit');
      expect(second.headers.get('content-encoding')).toMatch(/^(br|gzip)$/);
      expect(await third.text()).toBe(await first.text());
      expect({ hooks, handled }).toEqual({ hooks: 1, handled: 1 });
    } finally {
      await app.close();
    }
  });
});

describe('a cold page under load', () => {
  /**
   * Sends `count` requests at once to a public route whose first call waits until the others
   * have had time to arrive, checks that meanwhile it was the only call, then lets it answer.
   * Later calls wait until `together` calls are running. Answers the responses and the calls made.
   */
  async function overlappingRequests(
    count: number,
    answer: (call: number) => { status: number; body: object; personal?: boolean },
    together = 1,
  ) {
    const app = cacheOnlyApp();
    let calls = 0;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let allIn!: () => void;
    const allRunning = new Promise<void>((resolve) => (allIn = resolve));
    app.get('/v1/thing', { config: { publicCache: true } }, async (request, reply) => {
      calls += 1;
      const { status, body, personal } = answer(calls);
      if (personal) markPersonal(request.ctx);
      if (calls === together) allIn();
      await (calls === 1 ? gate : allRunning);
      return reply.status(status).send(body);
    });
    const url = await listenLocally(app);
    try {
      const answers = Array.from({ length: count }, () => rawHttpGet(`${url}/v1/thing`));
      await vi.waitFor(() => expect(calls).toBeGreaterThan(0));
      // The others have time to arrive and wait; none of them may have called the handler.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(calls).toBe(1);
      open();
      const responses = await Promise.all(answers);
      return { responses, calls };
    } finally {
      await app.close();
    }
  }

  it('renders once for every request that arrives while it renders, and sends them all what it stored', async () => {
    const { responses, calls } = await overlappingRequests(8, (call) => ({
      status: 200,
      body: { code: 200, msg: 'ok', data: call },
    }));
    expect(calls).toBe(1);
    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(200));
    expect(responses.map((response) => response.headers['x-cache']).sort()).toEqual([...Array(7).fill('hit'), 'miss']);
    for (const response of responses) expect(JSON.parse(response.body.toString()).data).toBe(1);
  });

  it('lets the waiting requests answer for themselves, all at once, when the render stores nothing', async () => {
    // The four others answer only once all four run at the same time: one at a time, they never would.
    const { responses, calls } = await overlappingRequests(
      5,
      () => ({ status: 404, body: { code: 404, msg: 'not found' } }),
      5,
    );
    expect(calls).toBe(5);
    expect(responses.map((response) => response.status)).toEqual(Array(5).fill(404));
    expect(responses.every((response) => response.headers['x-cache'] === undefined)).toBe(true);
  });

  it('never hands a render that read a session to the requests that waited for it', async () => {
    const { responses, calls } = await overlappingRequests(
      4,
      (call) => ({ status: 200, body: { code: 200, msg: 'ok', data: `for visitor ${call}` }, personal: true }),
      4,
    );
    expect(calls).toBe(4);
    expect(responses.map((response) => JSON.parse(response.body.toString()).data).sort()).toEqual([
      'for visitor 1',
      'for visitor 2',
      'for visitor 3',
      'for visitor 4',
    ]);
    expect(responses.every((response) => response.headers['x-cache'] === undefined)).toBe(true);
  });

  it('renders a cold storefront page once for visitors arriving together', async () => {
    const product = await prepareSku(server, { stock: 5 });
    const path = `/en/product/${product.productId}`;
    const responses = await Promise.all(Array.from({ length: 6 }, () => rawGet(path)));
    expect(responses.map((response) => response.status)).toEqual(Array(6).fill(200));
    expect(responses.map((response) => response.headers['x-cache']).sort()).toEqual([...Array(5).fill('hit'), 'miss']);
    expect(new Set(responses.map((response) => response.headers.etag)).size).toBe(1);
    // Each of them is handed its own cookies, as on any hit.
    const tokens = responses.map(
      (response) =>
        response.headers['set-cookie']?.find((cookie) => cookie.startsWith('csrf_token='))?.split(/[=;]/)[1],
    );
    expect(new Set(tokens).size).toBe(6);
  });

  it('finishes and keeps a render whose visitor left, for the visitors after', async () => {
    const product = await prepareSku(server, { stock: 5 });
    const path = `/en/product/${product.productId}`;
    const { port } = new URL(server.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Still rendering: this one waits for it; rendered already: a hit. Aborted, it would render anew.
    const next = await rawGet(path);
    expect(next.status).toBe(200);
    expect(next.headers['x-cache']).toBe('hit');
  });
});
