import { z } from 'zod';

/** The My Orders tabs: All, Pending Payment, Pending Shipment, Pending Delivery, After-Sales. */
export const ORDER_TABS = ['all', '1', '10', '20', 'after_sales'] as const;

export const orderListQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(10),
  status: z.enum(ORDER_TABS).default('all'),
});
export type OrderListQuery = z.infer<typeof orderListQuery>;

export const afterSaleListQuery = orderListQuery.omit({ status: true });

export const orderIdParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
