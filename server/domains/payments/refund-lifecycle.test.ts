import { describe, expect, it } from 'vitest';
import type { RefundState } from '../../db/schema';
import { canMoveRefund, type RefundAction } from './refund-lifecycle';

const allowed: Array<[RefundState, RefundState, RefundAction]> = [
  ['awaiting_approval', 'pending', 'approve'],
  ['awaiting_approval', 'rejected', 'reject'],
  ['pending', 'succeeded', 'confirm'],
  ['pending', 'failed', 'giveUp'],
];
const states: RefundState[] = ['awaiting_approval', 'pending', 'succeeded', 'failed', 'rejected'];
const actions: RefundAction[] = ['approve', 'reject', 'confirm', 'giveUp'];

describe('refund lifecycle', () => {
  it('allows the four listed moves and refuses every other', () => {
    let count = 0;
    for (const from of states)
      for (const to of states)
        for (const action of actions) {
          const expected = allowed.some(([f, t, a]) => f === from && t === to && a === action);
          expect(canMoveRefund(from, to, action), `${from} -> ${to} by ${action}`).toBe(expected);
          if (expected) count++;
        }
    expect(count).toBe(4);
  });

  it('never leaves a final state', () => {
    for (const from of ['succeeded', 'failed', 'rejected'] as const)
      for (const to of states) for (const action of actions) expect(canMoveRefund(from, to, action)).toBe(false);
  });
});
