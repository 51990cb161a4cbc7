import type { OrderCounts, OrderListQuery } from '../../server/domains/orders/orders.schemas';

/** The tabs of `orderListQuery`, in tab order (kept here so the page bundle needs no zod). */
export const ORDER_TABS = [
  'all',
  '1',
  '10',
  '20',
  'after_sales',
] as const satisfies readonly OrderListQuery['status'][];
export type OrderTab = (typeof ORDER_TABS)[number];

/** Which of `GET /v1/order/countByStatus`'s numbers belongs to each tab. */
export const ORDER_TAB_COUNT: Record<OrderTab, Exclude<keyof OrderCounts, 'by_status'>> = {
  all: 'all',
  '1': 'pending_payment',
  '10': 'pending_shipment',
  '20': 'pending_receipt',
  after_sales: 'after_sales',
};

/** My Orders at `base` (/{locale}/my/order) on a tab and page; the first tab and page leave the query out. */
export function orderTabHref(base: string, tab: OrderTab, page = 1): string {
  const query = new URLSearchParams();
  if (tab !== 'all') query.set('status', tab);
  if (page > 1) query.set('page', String(page));
  return query.size ? `${base}?${query}` : base;
}
