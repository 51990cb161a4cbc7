import type { MessageKey } from '../../../i18n';
import type { CustomerStatus } from '../../../server/domains/customers/admin-customers.schemas';
import type { PillTone } from './tones';

export const CUSTOMER_STATUS_LABELS: Record<CustomerStatus, MessageKey> = {
  active: 'console.customers.status.active',
  disabled: 'console.customers.status.disabled',
  erased: 'console.customers.status.erased',
};

export function customerTone(status: CustomerStatus): PillTone {
  return status === 'active' ? 'success' : status === 'disabled' ? 'warning' : 'neutral';
}
