import type { AfterSaleState } from '../../db/schema';
import { AFTER_SALE_TYPE, type AfterSaleType } from '../../shared/order-status';

/**
 * An after-sale case's lifecycle as one table (ADR 0130): every move, the action that makes it,
 * who may take it and for which types. Anything not listed is refused by `moveCase`
 * (after-sale-state.ts).
 *
 *   requested -> cancelled (buyer) | rejected (operator; one appeal back to requested) | approved
 *   approved (refund only, or a returnless refund) -> refunding
 *   awaiting_parcel (return, exchange) -> in_transit (buyer's tracking) -> received -> refunding | exchange_shipped
 *   awaiting_parcel -> closed (no parcel in time) | cancelled (buyer)
 *   refunding -> completed (gateway's yes) | back to approved or received (refund failed or refused)
 *   exchange_shipped -> completed (buyer confirms, or the sweep after the confirm days)
 */
export type AfterSaleAction =
  | 'approve'
  | 'approveReturnless'
  | 'reject'
  | 'cancel'
  | 'appeal'
  | 'sendParcel'
  | 'receive'
  | 'closeUnsent'
  | 'refund'
  | 'refundSucceeded'
  | 'refundFailed'
  | 'shipExchange'
  | 'confirmExchange';

export type AfterSaleActor = 'buyer' | 'operator' | 'system' | 'payment';

export interface AfterSaleTransition {
  from: AfterSaleState;
  to: AfterSaleState;
  action: AfterSaleAction;
  by: readonly AfterSaleActor[];
  types: readonly AfterSaleType[];
}

const { refundOnly, refundAndReturn, exchange } = AFTER_SALE_TYPE;
const ANY_TYPE = [refundOnly, refundAndReturn, exchange] as const;
const WITH_PARCEL = [refundAndReturn, exchange] as const;

const AFTER_SALE_TRANSITIONS: readonly AfterSaleTransition[] = [
  { from: 'requested', to: 'approved', action: 'approve', by: ['operator'], types: [refundOnly] },
  { from: 'requested', to: 'awaiting_parcel', action: 'approve', by: ['operator'], types: WITH_PARCEL },
  // Below the returnless threshold the goods stay with the buyer (return freight to China costs more).
  { from: 'requested', to: 'approved', action: 'approveReturnless', by: ['operator'], types: [refundAndReturn] },
  { from: 'requested', to: 'rejected', action: 'reject', by: ['operator'], types: ANY_TYPE },
  { from: 'requested', to: 'cancelled', action: 'cancel', by: ['buyer'], types: ANY_TYPE },
  { from: 'rejected', to: 'requested', action: 'appeal', by: ['buyer'], types: ANY_TYPE },
  { from: 'awaiting_parcel', to: 'in_transit', action: 'sendParcel', by: ['buyer'], types: WITH_PARCEL },
  { from: 'awaiting_parcel', to: 'cancelled', action: 'cancel', by: ['buyer'], types: WITH_PARCEL },
  { from: 'awaiting_parcel', to: 'closed', action: 'closeUnsent', by: ['system'], types: WITH_PARCEL },
  // A parcel can arrive before its buyer typed the tracking number.
  { from: 'awaiting_parcel', to: 'received', action: 'receive', by: ['operator'], types: WITH_PARCEL },
  { from: 'in_transit', to: 'received', action: 'receive', by: ['operator'], types: WITH_PARCEL },
  // What came back is not what was sold, or was damaged by the buyer.
  { from: 'received', to: 'rejected', action: 'reject', by: ['operator'], types: WITH_PARCEL },
  { from: 'approved', to: 'refunding', action: 'refund', by: ['operator'], types: [refundOnly, refundAndReturn] },
  { from: 'received', to: 'refunding', action: 'refund', by: ['operator'], types: [refundAndReturn] },
  {
    from: 'refunding',
    to: 'completed',
    action: 'refundSucceeded',
    by: ['payment'],
    types: [refundOnly, refundAndReturn],
  },
  { from: 'refunding', to: 'approved', action: 'refundFailed', by: ['payment'], types: [refundOnly, refundAndReturn] },
  { from: 'refunding', to: 'received', action: 'refundFailed', by: ['payment'], types: [refundAndReturn] },
  { from: 'received', to: 'exchange_shipped', action: 'shipExchange', by: ['operator'], types: [exchange] },
  { from: 'exchange_shipped', to: 'completed', action: 'confirmExchange', by: ['buyer', 'system'], types: [exchange] },
];

/** The table's row for this move, or null when the table refuses it. */
export function allowedCaseMove(move: {
  from: AfterSaleState;
  to: AfterSaleState;
  action: AfterSaleAction;
  actor: AfterSaleActor;
  type: AfterSaleType;
}): AfterSaleTransition | null {
  const row = AFTER_SALE_TRANSITIONS.find(
    (transition) => transition.from === move.from && transition.to === move.to && transition.action === move.action,
  );
  if (!row || !row.by.includes(move.actor) || !row.types.includes(move.type)) return null;
  return row;
}

/** States no move leaves except an appeal: the case holds no more work. */
export const FINISHED_CASE_STATES: readonly AfterSaleState[] = ['cancelled', 'closed', 'rejected', 'completed'];

/** States that no longer count toward the order (withdrawn or lapsed): their quantities can be asked for again. */
export const WITHDRAWN_CASE_STATES: readonly AfterSaleState[] = ['cancelled', 'closed'];

/** Whether the table has a move of `action` out of `state` for `actor` and `type`: what a page may offer. */
export function canTakeAction(
  state: AfterSaleState,
  action: AfterSaleAction,
  actor: AfterSaleActor,
  type: AfterSaleType,
): boolean {
  return AFTER_SALE_TRANSITIONS.some(
    (row) => row.from === state && row.action === action && row.by.includes(actor) && row.types.includes(type),
  );
}
