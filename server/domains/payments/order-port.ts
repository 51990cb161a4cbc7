import type { AppContext } from '../../shared/context';

/**
 * What payments needs from orders, in one place: the orders domain owns its tables and
 * the order lifecycle; payments only reads an order's amount and owner and asks orders to
 * record that it was paid.
 */
export interface PayableOrder {
  id: number;
  orderNo: string;
  userId: number;
  status: number;
  payStatus: number;
  totalMinor: number;
  currency: string;
}

export type MarkPaidOutcome = { outcome: 'paid' } | { outcome: 'already_paid' } | { outcome: 'not_payable'; status: number };

// TEMPORARY until the orders branch is merged.
export async function readOrderForPayment(_ctx: AppContext, _orderId: number): Promise<PayableOrder | null> {
  throw new Error('orders not merged yet');
}

export async function markOrderPaid(
  _ctx: AppContext,
  _input: { orderId: number; paymentId: number; paidAt: Date },
): Promise<MarkPaidOutcome> {
  throw new Error('orders not merged yet');
}
