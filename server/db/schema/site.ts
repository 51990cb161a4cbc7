import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { ContentBlock } from '../../shared/content-blocks';
import { localizedText } from './columns';

/** One row per setting; values are JSON so a setting can be a number, a list or an object. */
export const siteSettings = pgTable('site_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The editable content pages of the top navigation (/videos, /our-story, /faq, /contact-us). */
export const contentPages = pgTable('content_pages', {
  slug: text('slug').primaryKey(),
  title: localizedText('title').notNull(),
  summary: localizedText('summary').notNull(),
  blocks: jsonb('blocks').$type<{ en: ContentBlock[]; 'zh-cn': ContentBlock[] }>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Server-side secrets generated on first start (never exposed by any endpoint). */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
