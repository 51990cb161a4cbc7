/**
 * The payment attempt lifecycle, as one table. Every status change goes through
 * `canTransition`; anything not listed here is refused.
 *
 * - pending: the buyer was sent to the gateway.
 * - succeeded: the gateway captured the money (a late capture after a failure still counts:
 *   the money is real and must be accounted for).
 * - failed: declined or expired at the gateway; the order stays payable.
 * - refund_pending: captured, but the order could not take it (cancelled meanwhile, or paid
 *   by another attempt); a refund is owed and retried until the gateway confirms it.
 * - refunded: the gateway confirmed the refund.
 */
export const PAYMENT_STATES = ['pending', 'succeeded', 'failed', 'refund_pending', 'refunded'] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

export const PAYMENT_TRANSITIONS: Record<PaymentState, readonly PaymentState[]> = {
  pending: ['succeeded', 'failed', 'refund_pending'],
  failed: ['succeeded', 'refund_pending'],
  succeeded: ['refund_pending'],
  refund_pending: ['refunded'],
  refunded: [],
};

export function canTransition(from: PaymentState, to: PaymentState): boolean {
  return PAYMENT_TRANSITIONS[from].includes(to);
}
