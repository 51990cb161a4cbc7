import { describe, expect, it } from 'vitest';
import { AFTER_SALE_STATUSES, ORDER_STATUSES, PAY_STATUSES } from '../../shared/order-status';
import { allowedTransition, type Actor, type OrderAction } from './order-lifecycle';

/**
 * Every move the shop allows, written out by hand (ADR 0040 over SPEC section 4's numbers):
 * from, to, the action, and who may take it. SPEC names two of them (the buyer cancels an
 * unpaid order and confirms receipt); the rest are the shop's own. Every other
 * (from, to, action, actor) is refused.
 */
const allowed: Array<[from: number, to: number, action: OrderAction, by: Actor[]]> = [
  [1, 10, 'pay', ['payment']],
  [1, 60, 'cancel', ['buyer', 'system', 'operator']],
  [10, 20, 'ship', ['operator']],
  [10, 41, 'refundInFull', ['payment']],
  [20, 30, 'confirmReceipt', ['buyer', 'system']],
  [30, 70, 'complete', ['system', 'operator']],
  [41, 71, 'closeAfterSale', ['system']],
  [42, 71, 'closeAfterSale', ['system']],
  [51, 71, 'closeAfterSale', ['system']],
  [52, 71, 'closeAfterSale', ['system']],
];

/**
 * After-sale moves (ADR 0130): the order's status follows its cases, whoever moved them, so
 * each of these pairs is open to every actor with the action `afterSale`.
 */
const afterSalePairs: Array<[from: number, to: number]> = [
  // A case opens: a refund before shipping; a refund or an exchange once shipped.
  [10, 40],
  [20, 40],
  [20, 50],
  [30, 40],
  [30, 50],
  // Between the after-sale statuses, in any direction (several cases, appeals, failures).
  ...[40, 41, 42, 50, 51, 52].flatMap((from) =>
    [40, 41, 42, 50, 51, 52].filter((to) => to !== from).map((to): [number, number] => [from, to]),
  ),
  // Every open case withdrawn or closed: back where the order was.
  [40, 10],
  [40, 20],
  [40, 30],
  [50, 20],
  [50, 30],
  [51, 20],
  [51, 30],
];
for (const [from, to] of afterSalePairs)
  allowed.push([from, to, 'afterSale', ['buyer', 'operator', 'system', 'payment']]);

const statuses = [1, 10, 20, 30, 40, 41, 42, 50, 51, 52, 60, 70, 71];
const actions: OrderAction[] = [
  'pay',
  'cancel',
  'ship',
  'confirmReceipt',
  'complete',
  'afterSale',
  'closeAfterSale',
  'refundInFull',
];
const actors: Actor[] = ['buyer', 'system', 'operator', 'payment'];
const PENDING = 1;
const PAID = 2;
const CANCELLED = 3;
/** The pay status an order has while it sits in each status. */
const payStatusIn = (status: number) => (status === 1 ? PENDING : status === 60 ? CANCELLED : PAID);

describe('order lifecycle', () => {
  it('uses exactly the status numbers of SPEC section 4', () => {
    expect(ORDER_STATUSES).toEqual(statuses);
    expect(PAY_STATUSES).toEqual([PENDING, PAID, CANCELLED]);
    expect([...AFTER_SALE_STATUSES]).toEqual([40, 41, 42, 50, 51, 52, 71]);
  });

  it('allows exactly the moves of the table above, each only to the actors it names', () => {
    let allowedCount = 0;
    for (const from of statuses)
      for (const to of statuses)
        for (const action of actions)
          for (const actor of actors) {
            const expected = allowed.some(
              ([f, t, a, by]) => f === from && t === to && a === action && by.includes(actor),
            );
            const move = { from, to, action, actor };
            expect(allowedTransition(move, payStatusIn(from)) !== null, JSON.stringify(move)).toBe(expected);
            if (expected) allowedCount++;
          }
    expect(allowedCount).toBe(182);
  });

  it('refuses a move whose action does not match, even between statuses the table links', () => {
    expect(allowedTransition({ from: 1, to: 10, action: 'ship', actor: 'payment' }, PENDING)).toBeNull();
    expect(allowedTransition({ from: 1, to: 60, action: 'complete', actor: 'buyer' }, PENDING)).toBeNull();
    expect(allowedTransition({ from: 20, to: 30, action: 'complete', actor: 'buyer' }, PAID)).toBeNull();
  });

  it('refuses what SPEC and ADR 0040 rule out', () => {
    // A paid order is refunded through after-sales, never cancelled.
    expect(allowedTransition({ from: 10, to: 60, action: 'cancel', actor: 'buyer' }, PAID)).toBeNull();
    expect(allowedTransition({ from: 20, to: 60, action: 'cancel', actor: 'system' }, PAID)).toBeNull();
    // No skipping shipment, and the buyer cannot ship or pay by saying so.
    expect(allowedTransition({ from: 1, to: 20, action: 'ship', actor: 'operator' }, PENDING)).toBeNull();
    expect(allowedTransition({ from: 10, to: 20, action: 'ship', actor: 'buyer' }, PAID)).toBeNull();
    expect(allowedTransition({ from: 1, to: 10, action: 'pay', actor: 'buyer' }, PENDING)).toBeNull();
  });

  it('moves the pay status with pay and cancel, and only from pending', () => {
    expect(allowedTransition({ from: 1, to: 10, action: 'pay', actor: 'payment' }, PENDING)?.pay).toEqual({
      from: PENDING,
      to: PAID,
    });
    expect(allowedTransition({ from: 1, to: 60, action: 'cancel', actor: 'system' }, PENDING)?.pay).toEqual({
      from: PENDING,
      to: CANCELLED,
    });
    expect(allowedTransition({ from: 1, to: 10, action: 'pay', actor: 'payment' }, PAID)).toBeNull();
    expect(allowedTransition({ from: 1, to: 10, action: 'pay', actor: 'payment' }, CANCELLED)).toBeNull();
    expect(allowedTransition({ from: 1, to: 60, action: 'cancel', actor: 'buyer' }, CANCELLED)).toBeNull();
    expect(allowedTransition({ from: 10, to: 20, action: 'ship', actor: 'operator' }, PAID)?.pay).toBeUndefined();
  });
});
