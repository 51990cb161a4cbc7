import { describe, expect, it } from 'vitest';
import type { AfterSaleState } from '../../db/schema';
import type { AfterSaleType } from '../../shared/order-status';
import { allowedCaseMove, type AfterSaleAction, type AfterSaleActor } from './after-sale-lifecycle';

/**
 * The after-sale case lifecycle (ADR 0130), every allowed move written out by hand, one line
 * per (from, to, action, actor, type): 36 in all (counted by hand below, per group). Every
 * other combination of the 11 states, 13 actions, 4 actors and 3 types is refused.
 * Types: 10 refund only, 20 return and refund, 30 exchange.
 */
type Move = [
  from: AfterSaleState,
  to: AfterSaleState,
  action: AfterSaleAction,
  actor: AfterSaleActor,
  type: AfterSaleType,
];

const allowed: Move[] = [
  // The operator answers a request (7): a refund only is ready to pay; a return or an exchange
  // waits for the parcel; a return below the threshold may be refunded without it.
  ['requested', 'approved', 'approve', 'operator', 10],
  ['requested', 'awaiting_parcel', 'approve', 'operator', 20],
  ['requested', 'awaiting_parcel', 'approve', 'operator', 30],
  ['requested', 'approved', 'approveReturnless', 'operator', 20],
  ['requested', 'rejected', 'reject', 'operator', 10],
  ['requested', 'rejected', 'reject', 'operator', 20],
  ['requested', 'rejected', 'reject', 'operator', 30],
  // The buyer withdraws a request not yet answered (3), or appeals a rejection (3).
  ['requested', 'cancelled', 'cancel', 'buyer', 10],
  ['requested', 'cancelled', 'cancel', 'buyer', 20],
  ['requested', 'cancelled', 'cancel', 'buyer', 30],
  ['rejected', 'requested', 'appeal', 'buyer', 10],
  ['rejected', 'requested', 'appeal', 'buyer', 20],
  ['rejected', 'requested', 'appeal', 'buyer', 30],
  // Waiting for the parcel (8): sent by the buyer, withdrawn by the buyer, closed by the sweep,
  // or arrived before the tracking number was typed.
  ['awaiting_parcel', 'in_transit', 'sendParcel', 'buyer', 20],
  ['awaiting_parcel', 'in_transit', 'sendParcel', 'buyer', 30],
  ['awaiting_parcel', 'cancelled', 'cancel', 'buyer', 20],
  ['awaiting_parcel', 'cancelled', 'cancel', 'buyer', 30],
  ['awaiting_parcel', 'closed', 'closeUnsent', 'system', 20],
  ['awaiting_parcel', 'closed', 'closeUnsent', 'system', 30],
  ['awaiting_parcel', 'received', 'receive', 'operator', 20],
  ['awaiting_parcel', 'received', 'receive', 'operator', 30],
  // The parcel arrives (2), and what came back may be refused (2).
  ['in_transit', 'received', 'receive', 'operator', 20],
  ['in_transit', 'received', 'receive', 'operator', 30],
  ['received', 'rejected', 'reject', 'operator', 20],
  ['received', 'rejected', 'reject', 'operator', 30],
  // Money goes back (3): from approved (refund only, returnless return) or from received (return).
  ['approved', 'refunding', 'refund', 'operator', 10],
  ['approved', 'refunding', 'refund', 'operator', 20],
  ['received', 'refunding', 'refund', 'operator', 20],
  // The gateway answers (5): yes completes; no goes back to where the refund can be sent again.
  ['refunding', 'completed', 'refundSucceeded', 'payment', 10],
  ['refunding', 'completed', 'refundSucceeded', 'payment', 20],
  ['refunding', 'approved', 'refundFailed', 'payment', 10],
  ['refunding', 'approved', 'refundFailed', 'payment', 20],
  ['refunding', 'received', 'refundFailed', 'payment', 20],
  // An exchange (3): the replacement ships, then the buyer or the sweep confirms it.
  ['received', 'exchange_shipped', 'shipExchange', 'operator', 30],
  ['exchange_shipped', 'completed', 'confirmExchange', 'buyer', 30],
  ['exchange_shipped', 'completed', 'confirmExchange', 'system', 30],
];

const states: AfterSaleState[] = [
  'requested',
  'cancelled',
  'rejected',
  'approved',
  'awaiting_parcel',
  'in_transit',
  'received',
  'refunding',
  'exchange_shipped',
  'completed',
  'closed',
];
const actions: AfterSaleAction[] = [
  'approve',
  'approveReturnless',
  'reject',
  'cancel',
  'appeal',
  'sendParcel',
  'receive',
  'closeUnsent',
  'refund',
  'refundSucceeded',
  'refundFailed',
  'shipExchange',
  'confirmExchange',
];
const actors: AfterSaleActor[] = ['buyer', 'operator', 'system', 'payment'];
const types: AfterSaleType[] = [10, 20, 30];

const isAllowed = (
  from: AfterSaleState,
  to: AfterSaleState,
  action: AfterSaleAction,
  actor: AfterSaleActor,
  type: AfterSaleType,
) => allowedCaseMove({ from, to, action, actor, type }) !== null;

describe('after-sale case lifecycle', () => {
  it('lists 36 allowed moves, each once', () => {
    // 7 + 6 + 8 + 4 + 3 + 5 + 3, counted per group above.
    expect(allowed).toHaveLength(36);
    expect(new Set(allowed.map((move) => move.join(' '))).size).toBe(36);
  });

  it.each(allowed)('allows %s -> %s by %s (%s, type %s)', (from, to, action, actor, type) => {
    expect(isAllowed(from, to, action, actor, type)).toBe(true);
  });

  it('refuses every other (from, to, action, actor, type) of 11 × 11 × 13 × 4 × 3 = 18876', () => {
    const listed = new Set(allowed.map((move) => move.join(' ')));
    let checked = 0;
    const wronglyAllowed: string[] = [];
    for (const from of states)
      for (const to of states)
        for (const action of actions)
          for (const actor of actors)
            for (const type of types) {
              checked += 1;
              const key = [from, to, action, actor, type].join(' ');
              if (!listed.has(key) && isAllowed(from, to, action, actor, type)) wronglyAllowed.push(key);
            }
    expect(checked).toBe(18_876);
    expect(wronglyAllowed).toEqual([]);
  });

  it('refuses moves that must never happen', () => {
    // A buyer cannot approve, reject, receive or refund their own request.
    expect(isAllowed('requested', 'approved', 'approve', 'buyer', 10)).toBe(false);
    expect(isAllowed('requested', 'awaiting_parcel', 'approve', 'buyer', 20)).toBe(false);
    expect(isAllowed('requested', 'rejected', 'reject', 'buyer', 10)).toBe(false);
    expect(isAllowed('in_transit', 'received', 'receive', 'buyer', 20)).toBe(false);
    expect(isAllowed('approved', 'refunding', 'refund', 'buyer', 10)).toBe(false);
    // An operator cannot say the gateway paid, nor confirm a replacement for the buyer.
    expect(isAllowed('refunding', 'completed', 'refundSucceeded', 'operator', 10)).toBe(false);
    expect(isAllowed('exchange_shipped', 'completed', 'confirmExchange', 'operator', 30)).toBe(false);
    // An exchange is never refunded, nor approved as a refund without its parcel.
    expect(isAllowed('received', 'refunding', 'refund', 'operator', 30)).toBe(false);
    expect(isAllowed('approved', 'refunding', 'refund', 'operator', 30)).toBe(false);
    expect(isAllowed('requested', 'approved', 'approve', 'operator', 30)).toBe(false);
    expect(isAllowed('requested', 'approved', 'approveReturnless', 'operator', 30)).toBe(false);
    // A refund only never waits for a parcel, and has nothing to receive or ship.
    expect(isAllowed('requested', 'awaiting_parcel', 'approve', 'operator', 10)).toBe(false);
    expect(isAllowed('awaiting_parcel', 'in_transit', 'sendParcel', 'buyer', 10)).toBe(false);
    expect(isAllowed('in_transit', 'received', 'receive', 'operator', 10)).toBe(false);
    expect(isAllowed('refunding', 'received', 'refundFailed', 'payment', 10)).toBe(false);
    expect(isAllowed('received', 'exchange_shipped', 'shipExchange', 'operator', 20)).toBe(false);
    // An approved refund cannot be withdrawn by the buyer; finished cases stay finished.
    expect(isAllowed('approved', 'cancelled', 'cancel', 'buyer', 10)).toBe(false);
    expect(isAllowed('in_transit', 'cancelled', 'cancel', 'buyer', 20)).toBe(false);
    expect(isAllowed('completed', 'requested', 'appeal', 'buyer', 10)).toBe(false);
    expect(isAllowed('cancelled', 'requested', 'appeal', 'buyer', 10)).toBe(false);
    expect(isAllowed('closed', 'requested', 'appeal', 'buyer', 20)).toBe(false);
    // The right action to the wrong state.
    expect(isAllowed('requested', 'rejected', 'cancel', 'buyer', 10)).toBe(false);
    expect(isAllowed('refunding', 'completed', 'refundFailed', 'payment', 10)).toBe(false);
  });
});
