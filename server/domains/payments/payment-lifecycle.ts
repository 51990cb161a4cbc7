import type { PaymentState } from '../../db/schema';

/**
 * The payment attempt lifecycle, as one table; anything not listed here is refused. Webhooks
 * check their move with `canTransition`; the other writers are a just-opened attempt the
 * gateway refused (pending -> failed) and the refund job, which updates only rows still
 * `refund_pending`.
 *
 * - pending: the buyer was sent to the gateway.
 * - succeeded: the gateway captured the money (a late capture after a failure still counts:
 *   the money is real and must be accounted for).
 * - failed: declined or expired at the gateway; the order stays payable.
 * - refund_pending: captured, but the order could not take it (cancelled meanwhile, or paid
 *   by another attempt); a refund is owed and retried until the gateway confirms it.
 * - refunded: the gateway confirmed the refund of everything captured: an owed refund, or
 *   staff refunds (refunds.service.ts) that together reached the captured amount.
 */

export type PaymentAction = 'capture' | 'decline' | 'oweRefund' | 'confirmRefund' | 'refundInFull';

/** Every allowed move with the action that makes it: the same shape as the order lifecycle table. */
export const PAYMENT_TRANSITIONS: ReadonlyArray<{ from: PaymentState; to: PaymentState; action: PaymentAction }> = [
  { from: 'pending', to: 'succeeded', action: 'capture' },
  { from: 'pending', to: 'failed', action: 'decline' },
  { from: 'pending', to: 'refund_pending', action: 'oweRefund' },
  { from: 'failed', to: 'succeeded', action: 'capture' },
  { from: 'failed', to: 'refund_pending', action: 'oweRefund' },
  { from: 'succeeded', to: 'refund_pending', action: 'oweRefund' },
  { from: 'refund_pending', to: 'refunded', action: 'confirmRefund' },
  { from: 'succeeded', to: 'refunded', action: 'refundInFull' },
];

export function canTransition(from: PaymentState, to: PaymentState, action: PaymentAction): boolean {
  return PAYMENT_TRANSITIONS.some((move) => move.from === from && move.to === to && move.action === action);
}
