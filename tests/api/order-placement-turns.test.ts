import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { orders } from '../../server/db/schema';
import { placementTurns } from '../../server/domains/checkout/place-order.service';
import { makeShopper, prepareSku, stockOf } from '../support/buyers';
import { useTestApp } from '../support/test-server';

/** Placements take turns (ADR 0181): how many run at once, and what a buyer who waited too long is told. */

function held() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  return { released, release };
}

describe('a placement that waits past its longest turn', () => {
  const server = useTestApp({ ORDER_PLACEMENTS_AT_ONCE: '1', ORDER_PLACEMENT_MAX_WAIT_SECONDS: '0.2' });

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
    expect(await server.ctx.db.select().from(orders).where(eq(orders.userId, buyer.id))).toEqual([]);

    const retried = await order('en');
    expect(retried.status, retried.text).toBe(200);
    expect(await stockOf(server, sku.id)).toBe(3);
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

    const answers = Promise.all(
      buyers.map((buyer) =>
        buyer.call('/v2/order', { method: 'POST', body: { items: [{ sku_id: sku.id, quantity: 1 }] } }),
      ),
    );
    await vi.waitFor(() => expect(turns.load).toEqual({ running: 2, waiting: 8 }), { timeout: 10_000 });
    expect(await stockOf(server, sku.id)).toBe(5);
    expect(await server.ctx.db.select().from(orders).where(eq(orders.userId, buyers[0]!.id))).toEqual([]);

    first.release();
    second.release();
    await Promise.all(holding);
    expect((await answers).map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 200, 409, 409, 409]);
    expect(await stockOf(server, sku.id)).toBe(0);
    expect(turns.load).toEqual({ running: 0, waiting: 0 });
  });
});
