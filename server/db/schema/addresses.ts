import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { localizedText, timestamps } from './columns';
import { users } from './customers';

/**
 * A buyer's shipping address. Province and city keep the `/v1/area/all` id and both
 * names, so an address reads correctly in either language without a lookup.
 */
export const userAddresses = pgTable(
  'user_addresses',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    countryCode: varchar('country_code', { length: 2 }).notNull(),
    provinceId: text('province_id'),
    provinceName: localizedText('province_name').notNull(),
    cityId: text('city_id'),
    cityName: localizedText('city_name').notNull(),
    detail: text('detail').notNull(),
    postalCode: text('postal_code').notNull().default(''),
    contactName: text('contact_name').notNull(),
    /** E.164, e.g. +14155550123. */
    contactPhone: text('contact_phone').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    ...timestamps,
  },
  (table) => [
    index('user_addresses_user_idx').on(table.userId),
    // Exactly one default per user is kept by the service; the index makes two impossible.
    uniqueIndex('user_addresses_one_default_idx')
      .on(table.userId)
      .where(sql`${table.isDefault}`),
  ],
);
