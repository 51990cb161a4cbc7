import { ORDER_STATUS, PAY_STATUS, type OrderStatus, type PayStatus } from '../../shared/order-status';

/**
 * The order lifecycle as one table: every move the shop allows between SPEC section 4's
 * statuses (server/shared/order-status.ts), with the action that makes it and who may take
 * it. Anything not listed is refused by `moveOrder` (order-state.ts).
 */
export type OrderAction =
  | 'pay'
  | 'cancel'
  | 'ship'
  | 'confirmReceipt'
  | 'complete'
  | 'requestRefund'
  | 'approveRefund'
  | 'rejectRefund'
  | 'requestExchange'
  | 'approveExchange'
  | 'rejectExchange'
  | 'closeAfterSale'
  | 'refundInFull';

/**
 * Who moves an order: the buyer, the shop's own jobs (the order sweep), an operator
 * (`npm run shop`, later the console), or the payments domain when a gateway confirms money.
 */
export type Actor = 'buyer' | 'system' | 'operator' | 'payment';

const S = ORDER_STATUS;

export interface OrderTransition {
  from: OrderStatus;
  to: OrderStatus;
  action: OrderAction;
  /** Who may take this move; anyone else is refused. */
  by: readonly Actor[];
  /** The pay status the order must have, and the one the move leaves it with, when the move changes it. */
  pay?: { from: PayStatus; to: PayStatus };
}

const PAY = PAY_STATUS;

const ORDER_TRANSITIONS: readonly OrderTransition[] = [
  {
    from: S.pendingPayment,
    to: S.pendingShipment,
    action: 'pay',
    by: ['payment'],
    pay: { from: PAY.pending, to: PAY.paid },
  },
  {
    from: S.pendingPayment,
    to: S.cancelled,
    action: 'cancel',
    by: ['buyer', 'system', 'operator'],
    pay: { from: PAY.pending, to: PAY.cancelled },
  },
  { from: S.pendingShipment, to: S.pendingReceipt, action: 'ship', by: ['operator'] },
  // A staff refund of everything paid for an order not yet shipped: nothing is left to send (ADR 0101).
  { from: S.pendingShipment, to: S.refunded, action: 'refundInFull', by: ['payment'] },
  { from: S.pendingShipment, to: S.refundInProgress, action: 'requestRefund', by: ['buyer'] },
  { from: S.pendingReceipt, to: S.received, action: 'confirmReceipt', by: ['buyer', 'system'] },
  { from: S.pendingReceipt, to: S.refundInProgress, action: 'requestRefund', by: ['buyer'] },
  { from: S.pendingReceipt, to: S.exchange, action: 'requestExchange', by: ['buyer'] },
  { from: S.received, to: S.completed, action: 'complete', by: ['system', 'operator'] },
  { from: S.received, to: S.refundInProgress, action: 'requestRefund', by: ['buyer'] },
  { from: S.received, to: S.exchange, action: 'requestExchange', by: ['buyer'] },
  { from: S.refundInProgress, to: S.refunded, action: 'approveRefund', by: ['operator'] },
  { from: S.refundInProgress, to: S.refundRejected, action: 'rejectRefund', by: ['operator'] },
  { from: S.refunded, to: S.afterSaleCompleted, action: 'closeAfterSale', by: ['system', 'operator'] },
  { from: S.refundRejected, to: S.afterSaleCompleted, action: 'closeAfterSale', by: ['system', 'operator'] },
  { from: S.exchange, to: S.exchangeApproved, action: 'approveExchange', by: ['operator'] },
  { from: S.exchange, to: S.exchangeRejected, action: 'rejectExchange', by: ['operator'] },
  { from: S.exchangeApproved, to: S.afterSaleCompleted, action: 'closeAfterSale', by: ['system', 'operator'] },
  { from: S.exchangeRejected, to: S.afterSaleCompleted, action: 'closeAfterSale', by: ['system', 'operator'] },
];

/**
 * The table's row for `actor` taking `action` from `from` to `to` on an order whose pay status
 * is `payStatus`, or null when that is refused: the move is not in the table, the table does
 * not name this actor for it, or the order's pay status is not the one the move expects.
 */
export function allowedTransition(
  move: { from: number; to: number; action: OrderAction; actor: Actor },
  payStatus: number,
): OrderTransition | null {
  const transition = ORDER_TRANSITIONS.find(
    (row) => row.from === move.from && row.to === move.to && row.action === move.action,
  );
  if (!transition || !transition.by.includes(move.actor)) return null;
  if (transition.pay && transition.pay.from !== payStatus) return null;
  return transition;
}
