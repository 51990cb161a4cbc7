// moveOrder (server/domains/orders/order-state.ts) obeys the lifecycle table on a real database:
// a move between statuses the table links is still refused when its action, its actor or the
// order's pay status is not the table's, and a refused move changes nothing and writes no history.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { orders, orderStatusHistory } from '../../server/db/schema';
import { IllegalTransitionError, lockOrder, moveOrder, type Move } from '../../server/domains/orders/order-state';
import { makeBuyer } from '../support/buyers';
import { useTestApp } from '../support/test-server';
import { makeOrder, orderRow } from './payments-fixtures';

const server = useTestApp();

async function tryMove(orderId: number, move: Move) {
  return server.ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (!order) throw new Error(`order ${orderId} is missing`);
    return moveOrder(tx, order, move);
  });
}

async function historyOf(orderId: number) {
  return server.ctx.db
    .select({ from: orderStatusHistory.fromStatus, to: orderStatusHistory.toStatus, actor: orderStatusHistory.actor })
    .from(orderStatusHistory)
    .where(eq(orderStatusHistory.orderId, orderId));
}

describe('moveOrder', () => {
  it('refuses a move whose action, actor or pay status is not the table’s, and changes nothing', async () => {
    const buyer = await makeBuyer(server);
    const orderId = await makeOrder(server.ctx, buyer.id);
    const refused: Move[] = [
      // 1 -> 60 is in the table, but as `cancel`, not `pay`.
      { action: 'pay', to: 60, actor: 'payment', note: 'order.history.cancelledByBuyer' },
      // 1 -> 10 is `pay` by the payments domain only.
      { action: 'pay', to: 10, actor: 'buyer', note: 'order.history.paid' },
      // 1 -> 20 is not in the table at all.
      { action: 'ship', to: 20, actor: 'operator', note: 'order.history.shipped' },
    ];
    for (const move of refused) await expect(tryMove(orderId, move)).rejects.toBeInstanceOf(IllegalTransitionError);
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 1, payStatus: 1 });
    expect(await historyOf(orderId)).toEqual([]);

    // An order already marked paid (pay status 2) cannot be paid again, even by the payments domain.
    await server.ctx.db.update(orders).set({ payStatus: 2 }).where(eq(orders.id, orderId));
    await expect(
      tryMove(orderId, { action: 'pay', to: 10, actor: 'payment', note: 'order.history.paid' }),
    ).rejects.toBeInstanceOf(IllegalTransitionError);
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 1, payStatus: 2 });
  });

  it('makes the table’s move and records it, with the pay status the table gives', async () => {
    const buyer = await makeBuyer(server);
    const orderId = await makeOrder(server.ctx, buyer.id);
    await tryMove(orderId, { action: 'cancel', to: 60, actor: 'buyer', note: 'order.history.cancelledByBuyer' });
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 60, payStatus: 3 });
    expect(await historyOf(orderId)).toEqual([{ from: 1, to: 60, actor: 'buyer' }]);
  });
});
