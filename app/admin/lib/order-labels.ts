import type { MessageKey } from '../../../i18n';
import { ORDER_STATUS, PAY_STATUS } from '../../../server/shared/order-status';
import type { PillTone } from './tones';

/** Order and pay statuses as the console's words and pill tones (the numbers are SPEC section 4's). */

export const ORDER_STATUS_LABELS: Record<number, MessageKey> = {
  [ORDER_STATUS.pendingPayment]: 'console.status.pendingPayment',
  [ORDER_STATUS.pendingShipment]: 'console.status.pendingShipment',
  [ORDER_STATUS.pendingReceipt]: 'console.status.pendingReceipt',
  [ORDER_STATUS.received]: 'console.status.received',
  [ORDER_STATUS.refundInProgress]: 'console.status.refundInProgress',
  [ORDER_STATUS.refunded]: 'console.status.refunded',
  [ORDER_STATUS.refundRejected]: 'console.status.refundRejected',
  [ORDER_STATUS.exchange]: 'console.status.exchange',
  [ORDER_STATUS.exchangeApproved]: 'console.status.exchangeApproved',
  [ORDER_STATUS.exchangeRejected]: 'console.status.exchangeRejected',
  [ORDER_STATUS.cancelled]: 'console.status.cancelled',
  [ORDER_STATUS.completed]: 'console.status.completed',
  [ORDER_STATUS.afterSaleCompleted]: 'console.status.afterSaleCompleted',
};

export const PAY_STATUS_LABELS: Record<number, MessageKey> = {
  [PAY_STATUS.pending]: 'console.payStatus.pending',
  [PAY_STATUS.paid]: 'console.payStatus.paid',
  [PAY_STATUS.cancelled]: 'console.payStatus.cancelled',
};

export function orderStatusTone(status: number): PillTone {
  switch (status) {
    case ORDER_STATUS.pendingPayment:
      return 'warning';
    case ORDER_STATUS.pendingShipment:
      return 'info';
    case ORDER_STATUS.cancelled:
    case ORDER_STATUS.refunded:
      return 'neutral';
    case ORDER_STATUS.refundInProgress:
    case ORDER_STATUS.exchange:
      return 'danger';
    default:
      return 'success';
  }
}

export function payStatusTone(status: number): PillTone {
  if (status === PAY_STATUS.paid) return 'success';
  if (status === PAY_STATUS.pending) return 'warning';
  return 'neutral';
}

export const REFUND_STATE_LABELS: Record<string, MessageKey> = {
  pending: 'console.refund.state.pending',
  awaiting_approval: 'console.refund.state.awaiting_approval',
  succeeded: 'console.refund.state.succeeded',
  failed: 'console.refund.state.failed',
  rejected: 'console.refund.state.rejected',
};

export function refundTone(state: string): PillTone {
  if (state === 'succeeded') return 'success';
  if (state === 'awaiting_approval') return 'warning';
  if (state === 'failed' || state === 'rejected') return 'danger';
  return 'info';
}

export const PAYMENT_STATE_LABELS: Record<string, MessageKey> = {
  pending: 'console.payment.pending',
  succeeded: 'console.payment.succeeded',
  failed: 'console.payment.failed',
  refund_pending: 'console.payment.refund_pending',
  refunded: 'console.payment.refunded',
};
