import type { AfterSaleState } from '../../db/schema';
import {
  AFTER_SALE_STATUS,
  AFTER_SALE_TYPE,
  ORDER_STATUS,
  type AfterSaleStatus,
  type AfterSaleType,
  type OrderStatus,
} from '../../shared/order-status';
import { FINISHED_CASE_STATES, WITHDRAWN_CASE_STATES } from './after-sale-lifecycle';

/**
 * The one place that turns after-sale cases into SPEC section 4's numbers (ADR 0130): a case's
 * after-sale status (1-4) from its state, and the order's status (40-52) from all its cases.
 */

export function afterSaleStatusOf(state: AfterSaleState): AfterSaleStatus {
  if (state === 'requested') return AFTER_SALE_STATUS.pending;
  if (WITHDRAWN_CASE_STATES.includes(state)) return AFTER_SALE_STATUS.cancelled;
  if (state === 'completed' || state === 'rejected') return AFTER_SALE_STATUS.completed;
  return AFTER_SALE_STATUS.inProgress;
}

export interface CaseFacts {
  type: AfterSaleType;
  state: AfterSaleState;
}

/** The statuses an order can come back to when no case counts any more. */
export type BaseStatus =
  typeof ORDER_STATUS.pendingShipment | typeof ORDER_STATUS.pendingReceipt | typeof ORDER_STATUS.received;

export function isBaseStatus(status: number): status is BaseStatus {
  return (
    status === ORDER_STATUS.pendingShipment ||
    status === ORDER_STATUS.pendingReceipt ||
    status === ORDER_STATUS.received
  );
}

/**
 * The order's status given its cases and the status it had before the first one (`base`):
 * - no case counts (all withdrawn or lapsed): `base`;
 * - a refund case still open: 40; else an exchange not yet answered: 50; else one under way: 51;
 * - every case finished: a refund paid 41, an exchange made 51, a refund refused 42, an
 *   exchange refused 52 (first that applies). An order not yet received that still has units
 *   not refunded (`unitsLeftToShip`) goes back to where it was: 10, so they can be shipped;
 *   20, so they can be received (confirmed by the buyer or the sweep), which starts the
 *   after-sale window for them.
 */
export function orderStatusFor(
  base: BaseStatus,
  cases: readonly CaseFacts[],
  options: { unitsLeftToShip: boolean },
): OrderStatus {
  const counted = cases.filter((item) => !WITHDRAWN_CASE_STATES.includes(item.state));
  if (counted.length === 0) return base;
  const open = counted.filter((item) => !FINISHED_CASE_STATES.includes(item.state));
  const isRefund = (item: CaseFacts) => item.type !== AFTER_SALE_TYPE.exchange;
  if (open.some(isRefund)) return ORDER_STATUS.refundInProgress;
  if (open.some((item) => item.state === 'requested')) return ORDER_STATUS.exchange;
  if (open.length > 0) return ORDER_STATUS.exchangeApproved;
  if ((base === ORDER_STATUS.pendingShipment || base === ORDER_STATUS.pendingReceipt) && options.unitsLeftToShip)
    return base;
  const finished = (refund: boolean, state: AfterSaleState) =>
    counted.some((item) => isRefund(item) === refund && item.state === state);
  if (finished(true, 'completed')) return ORDER_STATUS.refunded;
  if (finished(false, 'completed')) return ORDER_STATUS.exchangeApproved;
  if (finished(true, 'rejected')) return ORDER_STATUS.refundRejected;
  return ORDER_STATUS.exchangeRejected;
}
