import { describe, expect, it } from 'vitest';
import {
  canPayTransition,
  canTransition,
  nextStatus,
  ORDER_STATUSES,
  ORDER_TRANSITIONS,
  PAY_STATUSES,
  type OrderAction,
} from './order-lifecycle';

const ALLOWED = new Set(ORDER_TRANSITIONS.map((move) => `${move.from}->${move.to}`));

describe('order lifecycle', () => {
  it('uses exactly the status numbers of SPEC section 4', () => {
    expect(ORDER_STATUSES).toEqual([1, 10, 20, 30, 40, 41, 42, 50, 51, 52, 60, 70, 71]);
    expect(PAY_STATUSES).toEqual([1, 2, 3]);
  });

  it('refuses every move that is not in the table', () => {
    let refused = 0;
    for (const from of ORDER_STATUSES) {
      for (const to of ORDER_STATUSES) {
        expect(canTransition(from, to), `${from}->${to}`).toBe(ALLOWED.has(`${from}->${to}`));
        if (!ALLOWED.has(`${from}->${to}`)) refused++;
      }
    }
    expect(refused).toBe(13 * 13 - ORDER_TRANSITIONS.length);
  });

  it('allows the known moves and nothing out of a final status', () => {
    expect(canTransition(1, 10)).toBe(true);
    expect(canTransition(1, 60)).toBe(true);
    expect(canTransition(10, 20)).toBe(true);
    expect(canTransition(20, 30)).toBe(true);
    expect(canTransition(10, 60)).toBe(false); // a paid order is refunded, not cancelled
    expect(canTransition(20, 60)).toBe(false);
    expect(canTransition(1, 20)).toBe(false);
    for (const to of ORDER_STATUSES) {
      expect(canTransition(60, to)).toBe(false);
      expect(canTransition(70, to)).toBe(false);
      expect(canTransition(71, to)).toBe(false);
    }
  });

  it('maps actions to their one destination and refuses them elsewhere', () => {
    const actions = [...new Set(ORDER_TRANSITIONS.map((move) => move.action))] as OrderAction[];
    for (const from of ORDER_STATUSES) {
      for (const action of actions) {
        const move = ORDER_TRANSITIONS.find((candidate) => candidate.from === from && candidate.action === action);
        expect(nextStatus(from, action)).toBe(move?.to ?? null);
      }
    }
    expect(nextStatus(20, 'cancel')).toBeNull();
    expect(nextStatus(1, 'ship')).toBeNull();
  });

  it('moves the pay status only from pending', () => {
    for (const from of PAY_STATUSES) {
      for (const to of PAY_STATUSES) {
        expect(canPayTransition(from, to)).toBe(from === 1 && to !== 1);
      }
    }
  });
});
