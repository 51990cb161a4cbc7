import { ORDER_STATUS, PAY_STATUS, type OrderStatus, type PayStatus } from '../../shared/order-status';

/**
 * The order lifecycle as one table: every move the shop allows between SPEC section 4's
 * statuses (server/shared/order-status.ts), with the action that makes it and who may take
 * it. Anything not listed is refused by `moveOrder` (order-state.ts).
 */
export type OrderAction =
  'pay' | 'cancel' | 'ship' | 'confirmReceipt' | 'complete' | 'afterSale' | 'closeAfterSale' | 'refundInFull';

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

/** The statuses an order has while after-sales decide it (the cases' derived status). */
const IN_AFTER_SALE = [
  S.refundInProgress,
  S.refunded,
  S.refundRejected,
  S.exchange,
  S.exchangeApproved,
  S.exchangeRejected,
] as const;

/**
 * After-sale moves (ADR 0130): while an order has after-sale cases its status is derived from
 * them (server/domains/after-sales/after-sale-status.ts), whoever moved the case. These rows
 * say which derived moves can happen at all: into after-sales from a paid status, between the
 * after-sale statuses, and back to where the order was when every open case was withdrawn.
 */
function afterSaleMoves(from: readonly OrderStatus[], to: readonly OrderStatus[]): OrderTransition[] {
  return from.flatMap((f) =>
    to
      .filter((t) => t !== f)
      .map((t): OrderTransition => ({
        from: f,
        to: t,
        action: 'afterSale',
        by: ['buyer', 'operator', 'system', 'payment'],
      })),
  );
}

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
  { from: S.pendingReceipt, to: S.received, action: 'confirmReceipt', by: ['buyer', 'system'] },
  { from: S.received, to: S.completed, action: 'complete', by: ['system', 'operator'] },
  ...afterSaleMoves([S.pendingShipment], [S.refundInProgress]),
  ...afterSaleMoves([S.pendingReceipt, S.received], [S.refundInProgress, S.exchange]),
  ...afterSaleMoves(IN_AFTER_SALE, IN_AFTER_SALE),
  ...afterSaleMoves([S.refundInProgress], [S.pendingShipment, S.pendingReceipt, S.received]),
  ...afterSaleMoves([S.exchange, S.exchangeApproved], [S.pendingReceipt, S.received]),
  ...[S.refunded, S.refundRejected, S.exchangeApproved, S.exchangeRejected].map((from): OrderTransition => ({
    from,
    to: S.afterSaleCompleted,
    action: 'closeAfterSale',
    by: ['system'],
  })),
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
