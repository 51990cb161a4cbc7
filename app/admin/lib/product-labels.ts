import type { MessageKey } from '../../../i18n';
import type { ProductStatus } from '../../../server/domains/catalog/product-editor.schemas';
import type { PillTone } from './tones';

export const PRODUCT_STATUS_LABELS: Record<ProductStatus, MessageKey> = {
  draft: 'console.products.status.draft',
  published: 'console.products.status.published',
  archived: 'console.products.status.archived',
};

export const PRODUCT_STATUS_TONES: Record<ProductStatus, PillTone> = {
  draft: 'neutral',
  published: 'success',
  archived: 'warning',
};
