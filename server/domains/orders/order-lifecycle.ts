/**
 * The order lifecycle as one table: SPEC section 4's status numbers and every move the
 * shop allows between them, with the action that makes it. Anything not listed is refused.
 */
export const ORDER_STATUS = {
  pendingPayment: 1,
  pendingShipment: 10,
  pendingReceipt: 20,
  received: 30,
  refundInProgress: 40,
  refunded: 41,
  refundRejected: 42,
  exchange: 50,
  exchangeApproved: 51,
  exchangeRejected: 52,
  cancelled: 60,
  completed: 70,
  afterSaleCompleted: 71,
} as const;
export type OrderStatus = (typeof ORDER_STATUS)[keyof typeof ORDER_STATUS];
export const ORDER_STATUSES = Object.values(ORDER_STATUS) as OrderStatus[];

export const PAY_STATUS = { pending: 1, paid: 2, cancelled: 3 } as const;
export type PayStatus = (typeof PAY_STATUS)[keyof typeof PAY_STATUS];
export const PAY_STATUSES = Object.values(PAY_STATUS) as PayStatus[];

/** Statuses the "After-Sales" tab lists. */
export const AFTER_SALE_STATUSES: OrderStatus[] = [40, 41, 42, 50, 51, 52, 71];

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
  | 'closeAfterSale';

const S = ORDER_STATUS;

/** from -> to -> the action that makes that move. */
export const ORDER_TRANSITIONS: ReadonlyArray<{ from: OrderStatus; to: OrderStatus; action: OrderAction }> = [
  { from: S.pendingPayment, to: S.pendingShipment, action: 'pay' },
  { from: S.pendingPayment, to: S.cancelled, action: 'cancel' },
  { from: S.pendingShipment, to: S.pendingReceipt, action: 'ship' },
  { from: S.pendingShipment, to: S.refundInProgress, action: 'requestRefund' },
  { from: S.pendingReceipt, to: S.received, action: 'confirmReceipt' },
  { from: S.pendingReceipt, to: S.refundInProgress, action: 'requestRefund' },
  { from: S.pendingReceipt, to: S.exchange, action: 'requestExchange' },
  { from: S.received, to: S.completed, action: 'complete' },
  { from: S.received, to: S.refundInProgress, action: 'requestRefund' },
  { from: S.received, to: S.exchange, action: 'requestExchange' },
  { from: S.refundInProgress, to: S.refunded, action: 'approveRefund' },
  { from: S.refundInProgress, to: S.refundRejected, action: 'rejectRefund' },
  { from: S.refunded, to: S.afterSaleCompleted, action: 'closeAfterSale' },
  { from: S.refundRejected, to: S.afterSaleCompleted, action: 'closeAfterSale' },
  { from: S.exchange, to: S.exchangeApproved, action: 'approveExchange' },
  { from: S.exchange, to: S.exchangeRejected, action: 'rejectExchange' },
  { from: S.exchangeApproved, to: S.afterSaleCompleted, action: 'closeAfterSale' },
  { from: S.exchangeRejected, to: S.afterSaleCompleted, action: 'closeAfterSale' },
];

/** Pay status moves: paid or cancelled, once, from pending. */
export const PAY_TRANSITIONS: ReadonlyArray<{ from: PayStatus; to: PayStatus }> = [
  { from: PAY_STATUS.pending, to: PAY_STATUS.paid },
  { from: PAY_STATUS.pending, to: PAY_STATUS.cancelled },
];

export function canTransition(from: number, to: number): boolean {
  return ORDER_TRANSITIONS.some((move) => move.from === from && move.to === to);
}

export function canPayTransition(from: number, to: number): boolean {
  return PAY_TRANSITIONS.some((move) => move.from === from && move.to === to);
}

/** Where `action` takes an order in status `from`, or null when the action is not allowed there. */
export function nextStatus(from: number, action: OrderAction): OrderStatus | null {
  return ORDER_TRANSITIONS.find((move) => move.from === from && move.action === action)?.to ?? null;
}

export function isOrderStatus(value: number): value is OrderStatus {
  return (ORDER_STATUSES as number[]).includes(value);
}
