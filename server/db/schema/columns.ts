import { jsonb, timestamp } from 'drizzle-orm/pg-core';
import type { LocalizedText } from '../../../i18n/locales';

/** Text kept in both shop languages, e.g. {"en": "Linen shirt", "zh-cn": "亚麻衬衫"}. */
export const localizedText = (name: string) => jsonb(name).$type<LocalizedText>();

export const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};
