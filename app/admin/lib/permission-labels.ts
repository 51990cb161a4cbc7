import type { MessageKey } from '../../../i18n';
import type { Permission } from '../../../server/domains/staff/permissions';

/** Each permission and each area in the member's words, for the role editor. */
export const PERMISSION_LABELS: Record<Permission, MessageKey> = {
  'orders:read': 'console.permission.ordersRead',
  'orders:fulfil': 'console.permission.ordersFulfil',
  'orders:cancel': 'console.permission.ordersCancel',
  'orders:note': 'console.permission.ordersNote',
  'orders:export': 'console.permission.ordersExport',
  'payments:refund': 'console.permission.paymentsRefund',
  'aftersales:read': 'console.permission.afterSalesRead',
  'aftersales:manage': 'console.permission.afterSalesManage',
  'customers:read': 'console.permission.customersRead',
  'customers:write': 'console.permission.customersWrite',
  'customers:export': 'console.permission.customersExport',
  'customers:erase': 'console.permission.customersErase',
  'catalog:write': 'console.permission.catalogWrite',
  'settings:write': 'console.permission.settingsWrite',
  'staff:manage': 'console.permission.staffManage',
  'audit:read': 'console.permission.auditRead',
};

export const AREA_LABELS: Record<string, MessageKey> = {
  orders: 'console.area.orders',
  payments: 'console.area.payments',
  aftersales: 'console.area.afterSales',
  customers: 'console.area.customers',
  catalog: 'console.area.catalog',
  settings: 'console.area.settings',
  staff: 'console.area.staff',
  audit: 'console.area.audit',
};
