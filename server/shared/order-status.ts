/**
 * SPEC section 4's order and pay status numbers, the one place they are written. The API
 * answers them as they are, so the storefront compares against these names, never against
 * bare numbers. The moves between them: server/domains/orders/order-lifecycle.ts.
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
export const AFTER_SALE_STATUSES: readonly OrderStatus[] = [
  ORDER_STATUS.refundInProgress,
  ORDER_STATUS.refunded,
  ORDER_STATUS.refundRejected,
  ORDER_STATUS.exchange,
  ORDER_STATUS.exchangeApproved,
  ORDER_STATUS.exchangeRejected,
  ORDER_STATUS.afterSaleCompleted,
];

export function isOrderStatus(value: number): value is OrderStatus {
  return (ORDER_STATUSES as number[]).includes(value);
}

export function isPayStatus(value: number): value is PayStatus {
  return (PAY_STATUSES as number[]).includes(value);
}

/** SPEC section 4's after-sale types. */
export const AFTER_SALE_TYPE = { refundOnly: 10, refundAndReturn: 20, exchange: 30 } as const;
export type AfterSaleType = (typeof AFTER_SALE_TYPE)[keyof typeof AFTER_SALE_TYPE];
export const AFTER_SALE_TYPES = Object.values(AFTER_SALE_TYPE) as AfterSaleType[];

/** SPEC section 4's after-sale status, derived from a case's state (server/domains/after-sales/after-sale-status.ts). */
export const AFTER_SALE_STATUS = { pending: 1, cancelled: 2, inProgress: 3, completed: 4 } as const;
export type AfterSaleStatus = (typeof AFTER_SALE_STATUS)[keyof typeof AFTER_SALE_STATUS];
