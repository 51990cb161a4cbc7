import { describe, expect, it } from 'vitest';
import type { PaymentState } from '../../db/schema';
import { canTransition, PAYMENT_TRANSITIONS, type PaymentAction } from './payment-lifecycle';

const allowed: Array<[PaymentState, PaymentState, PaymentAction]> = [
  ['pending', 'succeeded', 'capture'],
  ['pending', 'failed', 'decline'],
  ['pending', 'refund_pending', 'oweRefund'],
  ['failed', 'succeeded', 'capture'],
  ['failed', 'refund_pending', 'oweRefund'],
  ['succeeded', 'refund_pending', 'oweRefund'],
  ['refund_pending', 'refunded', 'confirmRefund'],
  ['succeeded', 'refunded', 'refundInFull'],
];
const states: PaymentState[] = ['pending', 'succeeded', 'failed', 'refund_pending', 'refunded'];
const actions: PaymentAction[] = ['capture', 'decline', 'oweRefund', 'confirmRefund', 'refundInFull'];

describe('payment lifecycle', () => {
  it('allows exactly the listed transitions', () => {
    expect(PAYMENT_TRANSITIONS.map((move) => [move.from, move.to, move.action])).toEqual(allowed);
  });

  it('refuses every other transition, including staying put and a mismatched action', () => {
    for (const from of states) {
      for (const to of states) {
        for (const action of actions) {
          const legal = allowed.some(([a, b, c]) => a === from && b === to && c === action);
          expect(canTransition(from, to, action), `${from} -> ${to} by ${action}`).toBe(legal);
        }
      }
    }
  });

  it('never lets a captured payment fall back to pending or failed', () => {
    for (const from of ['succeeded', 'refund_pending', 'refunded'] as const) {
      for (const action of actions) {
        expect(canTransition(from, 'failed', action)).toBe(false);
        expect(canTransition(from, 'pending', action)).toBe(false);
      }
    }
    expect(canTransition('refunded', 'succeeded', 'capture')).toBe(false);
  });
});
