import { describe, expect, it } from 'vitest';
import type { AfterSaleState } from '../../db/schema';
import type { AfterSaleType } from '../../shared/order-status';
import { afterSaleStatusOf, orderStatusFor, type BaseStatus, type CaseFacts } from './after-sale-status';

/**
 * SPEC section 4's numbers from after-sale cases (ADR 0130). Every expected value is written
 * by hand: after-sale status 1 pending, 2 cancelled, 3 in progress, 4 completed; order status
 * 10 to ship, 20 shipped, 30 received, 40 refund in progress, 41 refunded, 42 refund refused,
 * 50 exchange asked, 51 exchange under way or made, 52 exchange refused.
 */

describe('afterSaleStatusOf', () => {
  it.each([
    ['requested', 1],
    ['cancelled', 2],
    ['closed', 2],
    ['approved', 3],
    ['awaiting_parcel', 3],
    ['in_transit', 3],
    ['received', 3],
    ['refunding', 3],
    ['exchange_shipped', 3],
    ['completed', 4],
    ['rejected', 4],
  ] as Array<[AfterSaleState, number]>)('%s is %i', (state, status) => {
    expect(afterSaleStatusOf(state)).toBe(status);
  });
});

const c = (type: AfterSaleType, state: AfterSaleState): CaseFacts => ({ type, state });

/** One step of a story: the order's cases after the step, and the order status expected. */
type Step = [what: string, cases: CaseFacts[], expected: number];

function walk(base: BaseStatus, steps: Step[], unitsLeftToShip = false) {
  for (const [what, cases, expected] of steps)
    expect(orderStatusFor(base, cases, { unitsLeftToShip }), what).toBe(expected);
}

describe('orderStatusFor, move by move', () => {
  it('a received order: a return refunded, then an exchange made, then a refused refund', () => {
    walk(30, [
      ['no case yet', [], 30],
      ['return requested', [c(20, 'requested')], 40],
      ['return approved, waiting for the parcel', [c(20, 'awaiting_parcel')], 40],
      ['parcel on its way', [c(20, 'in_transit')], 40],
      ['parcel received', [c(20, 'received')], 40],
      ['refund sent', [c(20, 'refunding')], 40],
      ['refund completed', [c(20, 'completed')], 41],
      ['a second case, an exchange, requested', [c(20, 'completed'), c(30, 'requested')], 50],
      ['the exchange approved', [c(20, 'completed'), c(30, 'awaiting_parcel')], 51],
      ['its parcel received', [c(20, 'completed'), c(30, 'received')], 51],
      ['the replacement shipped', [c(20, 'completed'), c(30, 'exchange_shipped')], 51],
      // Every case finished: a refund paid is named first.
      ['the replacement confirmed', [c(20, 'completed'), c(30, 'completed')], 41],
      ['a third case, a refund only', [c(20, 'completed'), c(30, 'completed'), c(10, 'requested')], 40],
      ['the third refused', [c(20, 'completed'), c(30, 'completed'), c(10, 'rejected')], 41],
    ]);
  });

  it('a received order: an exchange refused, appealed, approved, then withdrawn', () => {
    walk(30, [
      ['exchange requested', [c(30, 'requested')], 50],
      ['exchange refused', [c(30, 'rejected')], 52],
      ['appealed', [c(30, 'requested')], 50],
      ['approved', [c(30, 'awaiting_parcel')], 51],
      ['withdrawn before sending', [c(30, 'cancelled')], 30],
    ]);
  });

  it('a received order: refused refunds and exchanges, the refund named first', () => {
    walk(30, [
      ['a refund refused', [c(10, 'rejected')], 42],
      ['and an exchange asked', [c(10, 'rejected'), c(30, 'requested')], 50],
      ['the exchange refused too', [c(10, 'rejected'), c(30, 'rejected')], 42],
      ['an exchange alone refused', [c(30, 'rejected')], 52],
      ['an exchange made beside a refused refund', [c(10, 'rejected'), c(30, 'completed')], 51],
      ['a refund returned after its parcel was refused', [c(20, 'rejected')], 42],
    ]);
  });

  it('a refund still open outranks an exchange, whatever its stage', () => {
    walk(30, [
      ['exchange under way, refund asked', [c(30, 'received'), c(10, 'requested')], 40],
      ['exchange asked, refund being paid', [c(30, 'requested'), c(20, 'refunding')], 40],
      ['exchange asked, refund approved', [c(30, 'requested'), c(10, 'approved')], 40],
    ]);
  });

  it('every case withdrawn or lapsed: back to where the order was', () => {
    walk(30, [
      ['cancelled', [c(20, 'cancelled')], 30],
      ['closed, no parcel sent', [c(20, 'closed')], 30],
      ['several, all withdrawn', [c(10, 'cancelled'), c(30, 'closed'), c(20, 'cancelled')], 30],
    ]);
    walk(20, [
      ['shipped: a refund asked', [c(10, 'requested')], 40],
      ['shipped: an exchange asked', [c(30, 'requested')], 50],
      ['shipped: withdrawn', [c(30, 'cancelled')], 20],
    ]);
  });

  it('an order not yet shipped: back to 10 while units are left to send, 41 once nothing is', () => {
    // Some units refunded, others still to ship.
    walk(
      10,
      [
        ['refund of some units asked', [c(10, 'requested')], 40],
        ['approved', [c(10, 'approved')], 40],
        ['being paid', [c(10, 'refunding')], 40],
        ['paid, units left to ship', [c(10, 'completed')], 10],
        ['refused, units left to ship', [c(10, 'rejected')], 10],
        ['another asked beside the paid one', [c(10, 'completed'), c(10, 'requested')], 40],
        ['withdrawn', [c(10, 'cancelled')], 10],
      ],
      true,
    );
    // Every unit refunded.
    walk(10, [['paid for all units', [c(10, 'completed'), c(10, 'completed')], 41]], false);
  });

  it('an order on its way: back to 20 while units are still coming, so they can be received', () => {
    walk(
      20,
      [
        ['refund of one unit asked', [c(10, 'requested')], 40],
        ['paid, the rest still coming', [c(10, 'completed')], 20],
        ['refused, the rest still coming', [c(10, 'rejected')], 20],
        ['an exchange under way', [c(10, 'completed'), c(30, 'awaiting_parcel')], 51],
        ['the exchange made', [c(10, 'completed'), c(30, 'completed')], 20],
        ['an exchange refused', [c(30, 'rejected')], 20],
      ],
      true,
    );
    walk(20, [['every unit refunded before it arrived', [c(10, 'completed')], 41]], false);
    // Once received, the order keeps the after-sale statuses.
    walk(30, [['paid, other units kept', [c(10, 'completed')], 41]], true);
  });
});
