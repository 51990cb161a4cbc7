import net from 'node:net';
import { inArray } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { orders } from '../../server/db/schema';
import { placementTurns } from '../../server/domains/checkout/place-order.service';
import { tallyQueries } from '../../server/db/query-tally';
import { makeShopper, prepareSku, stockOf, type Buyer } from '../support/buyers';
import { held } from '../support/held';
import { postPageForm } from '../support/page-forms';
import { useTestApp, useTestServer } from '../support/test-server';

/** Placements take turns (ADR 0181): how many run at once, and what a buyer who waited too long is told. */

const ordersOf = (server: { ctx: { db: any } }, buyers: Buyer[]) =>
  server.ctx.db
    .select()
    .from(orders)
    .where(
      inArray(
        orders.userId,
        buyers.map((buyer) => buyer.id),
      ),
    );

describe('a placement that waits past its longest turn', () => {
  const server = useTestServer({ ORDER_PLACEMENTS_AT_ONCE: '1', ORDER_PLACEMENT_MAX_WAIT_SECONDS: '0.2' });

  it('is answered 503 with Retry-After in the buyer language, writes nothing, and the same key places the order later', async () => {
    const buyer = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 4 });
    const order = (lang: string) =>
      buyer.call('/v2/order', {
        method: 'POST',
        headers: { lang, 'idempotency-key': 'turns-wait-1' },
        body: { items: [{ sku_id: sku.id, quantity: 1 }] },
      });

    const turn = held();
    const holding = placementTurns(server.ctx).run(() => turn.released);
    const english = await order('en');
    const chinese = await order('zh-cn');
    turn.release();
    await holding;

    expect(english.status).toBe(503);
    expect(english.headers.get('retry-after')).toBe('5');
    expect(english.body).toEqual({
      code: 503,
      msg: 'The shop is very busy right now. Please try again in 5 seconds.',
      data: null,
    });
    expect(chinese.status).toBe(503);
    expect(chinese.body.msg).toBe('当前访问人数过多，请在 5 秒后重试。');
    expect(await stockOf(server, sku.id)).toBe(4);
    expect(await ordersOf(server, [buyer])).toEqual([]);

    const retried = await order('en');
    expect(retried.status, retried.text).toBe(200);
    expect(await stockOf(server, sku.id)).toBe(3);
  });

  it('answers at once, without queueing, a request refused without a statement: no credentials, a malformed key', async () => {
    const buyer = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 4 });
    const body = { items: [{ sku_id: sku.id, quantity: 1 }] };
    const turn = held();
    const holding = placementTurns(server.ctx).run(() => turn.released);
    try {
      // With the only turn held, a request that queued would be answered 503 after 0.2 s.
      const anonymous = await server.request('/v2/order', { method: 'POST', headers: { lang: 'en' }, body });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ code: 301, msg: 'Please log in first', data: null });
      const badKey = await buyer.call('/v2/order', {
        method: 'POST',
        headers: { 'idempotency-key': 'short' },
        body,
      });
      expect(badKey.status).toBe(400);
      expect(badKey.body.msg).toBe('The Idempotency-Key must be 8 to 128 letters, digits, dashes or underscores');
      expect(placementTurns(server.ctx).load).toEqual({ running: 1, waiting: 0 });
    } finally {
      turn.release();
      await holding;
    }
    expect(await stockOf(server, sku.id)).toBe(4);
  });

  it('on the confirm page: 503 with Retry-After and the sentence on the page, then Place order goes through', async () => {
    const buyer = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 2 });
    const placeOrder = () =>
      postPageForm(server, '/zh-cn/order/confirm_order', buyer, {
        sku_id: String(sku.id),
        quantity: '1',
        idempotency_key: 'turns-page-1',
      });

    const turn = held();
    const holding = placementTurns(server.ctx).run(() => turn.released);
    const busy = await placeOrder();
    turn.release();
    await holding;

    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('5');
    expect(busy.headers.get('cache-control')).toMatch(/no-store/);
    expect(await busy.text()).toContain('当前访问人数过多，请在 5 秒后重试。');
    expect(await ordersOf(server, [buyer])).toEqual([]);

    const placed = await placeOrder();
    expect(placed.status).toBe(302);
    expect(placed.headers.get('location')).toMatch(/^\/zh-cn\/order\/pay\?order_id=\d+$/);
    expect(await ordersOf(server, [buyer])).toHaveLength(1);
  });
});

describe('a placement whose buyer left while it waited', () => {
  const server = useTestServer({ ORDER_PLACEMENTS_AT_ONCE: '1', ORDER_PLACEMENT_MAX_WAIT_SECONDS: '60' });

  /** Sends a placement, waits until it queues behind the held turn, then closes its connection. */
  async function leaveWhileWaiting(send: (signal: AbortSignal) => Promise<Response>) {
    const turns = placementTurns(server.ctx);
    const client = new AbortController();
    const sent = send(client.signal).catch((error: unknown) => error);
    await vi.waitFor(() => expect(turns.load).toEqual({ running: 1, waiting: 1 }), { timeout: 10_000 });
    client.abort();
    expect(await sent).toMatchObject({ name: 'AbortError' });
    await vi.waitFor(() => expect(turns.load).toEqual({ running: 1, waiting: 0 }), { timeout: 10_000 });
  }

  it('never starts, through the API or the confirm page; the same key places the order once the buyer is back', async () => {
    const buyer = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 3 });
    const viaApi = (signal?: AbortSignal) =>
      fetch(`${server.url}/v2/order`, {
        method: 'POST',
        signal,
        headers: { ...buyer.headers, 'content-type': 'application/json', 'idempotency-key': 'turns-left-api' },
        body: JSON.stringify({ items: [{ sku_id: sku.id, quantity: 1 }] }),
      });
    const viaPage = (signal?: AbortSignal) =>
      fetch(`${server.url}/en/order/confirm_order`, {
        method: 'POST',
        signal,
        redirect: 'manual',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: server.url,
          cookie: `access_token=${buyer.headers.token}`,
        },
        body: new URLSearchParams({ sku_id: String(sku.id), quantity: '1', idempotency_key: 'turns-left-page' }),
      });

    const turn = held();
    const holding = placementTurns(server.ctx).run(() => turn.released);
    await leaveWhileWaiting(viaApi);
    await leaveWhileWaiting(viaPage);
    turn.release();
    await holding;
    expect(await stockOf(server, sku.id)).toBe(3);
    expect(await ordersOf(server, [buyer])).toEqual([]);

    const api = await viaApi();
    expect(api.status, await api.clone().text()).toBe(200);
    const page = await viaPage();
    expect(page.status).toBe(302);
    expect(await ordersOf(server, [buyer])).toHaveLength(2);
    expect(await stockOf(server, sku.id)).toBe(1);
  });
});

describe('placements at once', () => {
  const server = useTestApp({ ORDER_PLACEMENTS_AT_ONCE: '2', ORDER_PLACEMENT_MAX_WAIT_SECONDS: '60' });

  it('wait while every turn is taken, without reading or writing, then sell exactly what there is', async () => {
    const buyers = await Promise.all(Array.from({ length: 8 }, () => makeShopper(server)));
    const sku = await prepareSku(server, { stock: 5 });
    const turns = placementTurns(server.ctx);
    const first = held();
    const second = held();
    const holding = [turns.run(() => first.released), turns.run(() => second.released)];

    // The requests are sent inside the tally. A request waiting its turn sends nothing, not even
    // its session check: the turn is taken before it (ADR 0184).
    const { result: waiting, statements } = await tallyQueries(async () => {
      const answers = buyers.map((buyer) =>
        server.app.inject({
          method: 'POST',
          url: '/v2/order',
          headers: { ...buyer.headers, 'content-type': 'application/json' },
          payload: { items: [{ sku_id: sku.id, quantity: 1 }] },
        }),
      );
      await vi.waitFor(() => expect(turns.load).toEqual({ running: 2, waiting: 8 }), { timeout: 10_000 });
      return answers;
    });
    expect(statements).toEqual([]);
    expect(await stockOf(server, sku.id)).toBe(5);
    expect(await ordersOf(server, buyers)).toEqual([]);

    first.release();
    second.release();
    await Promise.all(holding);
    const answers = await Promise.all(waiting);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 409, 409, 409]);
    expect(await stockOf(server, sku.id)).toBe(0);
    expect(await ordersOf(server, buyers)).toHaveLength(5);
    expect(turns.load).toEqual({ running: 0, waiting: 0 });
  });
});

describe('a placement whose body is still arriving', () => {
  const server = useTestServer({ ORDER_PLACEMENTS_AT_ONCE: '1', ORDER_PLACEMENT_MAX_WAIT_SECONDS: '2' });

  it("holds no turn: another buyer's order goes through while it trickles, and it places its own once the body is in", async () => {
    const slow = await makeShopper(server);
    const other = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 5 });
    const body = JSON.stringify({ items: [{ sku_id: sku.id, quantity: 1 }] });
    const { port } = new URL(server.url);
    let answer = '';
    const socket = net.connect(Number(port), '127.0.0.1');
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      [
        'POST /v2/order HTTP/1.1',
        `host: 127.0.0.1:${port}`,
        'content-type: application/json',
        `content-length: ${Buffer.byteLength(body)}`,
        `token: ${slow.headers.token}`,
        `sign: ${slow.headers.sign}`,
        'lang: en',
        'idempotency-key: turns-slow-body',
        'connection: close',
        '',
        body.slice(0, 10),
      ].join('\r\n'),
    );

    // Let the first part of the body reach the server; a turn held by the slow request would make
    // the next order wait its longest wait (2 s) and be answered 503.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const meanwhile = await other.call('/v2/order', {
      method: 'POST',
      headers: { 'idempotency-key': 'turns-slow-other' },
      body: { items: [{ sku_id: sku.id, quantity: 1 }] },
    });
    expect(meanwhile.status, meanwhile.text).toBe(200);
    expect(placementTurns(server.ctx).load).toEqual({ running: 0, waiting: 0 });

    // Not `end`: a client that half-closes its side is taken for one that left.
    socket.write(body.slice(10));
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(await ordersOf(server, [slow, other])).toHaveLength(2);
    expect(await stockOf(server, sku.id)).toBe(3);
  });
});
