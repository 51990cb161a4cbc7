import { describe, expect, it } from 'vitest';
import { canTransition, PAYMENT_STATES, PAYMENT_TRANSITIONS, type PaymentState } from './payment-lifecycle';

const allowed: Array<[PaymentState, PaymentState]> = [
  ['pending', 'succeeded'],
  ['pending', 'failed'],
  ['pending', 'refund_pending'],
  ['failed', 'succeeded'],
  ['failed', 'refund_pending'],
  ['succeeded', 'refund_pending'],
  ['refund_pending', 'refunded'],
];

describe('payment lifecycle', () => {
  it('allows exactly the listed transitions', () => {
    expect(Object.entries(PAYMENT_TRANSITIONS).flatMap(([from, tos]) => tos.map((to) => [from, to]))).toEqual(allowed);
  });

  it('refuses every other transition, including staying put', () => {
    for (const from of PAYMENT_STATES) {
      for (const to of PAYMENT_STATES) {
        const legal = allowed.some(([a, b]) => a === from && b === to);
        expect(canTransition(from, to), `${from} -> ${to}`).toBe(legal);
      }
    }
  });

  it('never lets a captured payment fall back to pending or failed', () => {
    for (const from of ['succeeded', 'refund_pending', 'refunded'] as const) {
      expect(canTransition(from, 'failed')).toBe(false);
      expect(canTransition(from, 'pending')).toBe(false);
    }
    expect(canTransition('refunded', 'succeeded')).toBe(false);
  });
});
