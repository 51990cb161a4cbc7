import type { RefundState } from '../../db/schema';

/**
 * A staff refund's lifecycle, as one table (ADR 0101); anything not listed is refused.
 *
 * - awaiting_approval: above the requester's refund limit; waits for a second member.
 * - pending: approved (or within the limit); the outbox asks the gateway, retrying with backoff.
 * - succeeded: the gateway confirmed it; the buyer is emailed.
 * - failed: the gateway kept refusing; the amount is refundable again, unless the gateway later
 *   reports it made that very refund (its tag is ours), which settles it after all.
 * - rejected: a second member said no; the amount is refundable again.
 */
export type RefundAction = 'approve' | 'reject' | 'confirm' | 'giveUp' | 'gatewayReported';

export const REFUND_TRANSITIONS: ReadonlyArray<{ from: RefundState; to: RefundState; action: RefundAction }> = [
  { from: 'awaiting_approval', to: 'pending', action: 'approve' },
  { from: 'awaiting_approval', to: 'rejected', action: 'reject' },
  { from: 'pending', to: 'succeeded', action: 'confirm' },
  { from: 'pending', to: 'failed', action: 'giveUp' },
  { from: 'failed', to: 'succeeded', action: 'gatewayReported' },
];

/** Refunds in these states hold part of the payment: what is left to refund excludes them. */
export const REFUND_HOLDING_STATES: readonly RefundState[] = ['awaiting_approval', 'pending', 'succeeded'];

export function canMoveRefund(from: RefundState, to: RefundState, action: RefundAction): boolean {
  return REFUND_TRANSITIONS.some((move) => move.from === from && move.to === to && move.action === action);
}
