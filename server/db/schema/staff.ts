import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  varchar,
} from 'drizzle-orm/pg-core';
import type { LocalizedText } from '../../../i18n/locales';
import { localizedText, timestamps } from './columns';

/**
 * The seller's staff, who sign in to the console. Apart from buyers (`users`) on purpose:
 * another table, another cookie, another session table, so neither kind of session can act
 * as the other (docs/decisions/0100-staff-sessions.md).
 */
export const staffMembers = pgTable('staff_members', {
  id: serial('id').primaryKey(),
  /** Stored trimmed and lower-cased, so uniqueness ignores case. */
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  /** `scrypt$N$r$p$salt$hash`, as buyers' (server/domains/customers/passwords.ts). */
  passwordHash: text('password_hash').notNull(),
  /** The console's language for this person: `en` or `zh-cn`. */
  locale: varchar('locale', { length: 8 }).notNull().default('zh-cn'),
  /** Base32 TOTP secret, sealed with the server's secret (server/domains/staff); null until enrolled. */
  totpSecret: text('totp_secret'),
  totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true }),
  /** A disabled member cannot sign in; disabling revokes their sessions. */
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
  lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
  ...timestamps,
});

/**
 * A named set of `area:action` permissions (server/domains/staff/permissions.ts). Built-in
 * roles have a `key` and are kept in step with the code at start; Owners add custom ones.
 */
export const staffRoles = pgTable('staff_roles', {
  id: serial('id').primaryKey(),
  /** `owner`, `manager`, `fulfilment`, `support`, `catalogue` for built-in roles; null for custom ones. */
  key: text('key').unique(),
  name: localizedText('name').$type<LocalizedText>().notNull(),
  permissions: jsonb('permissions')
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  /**
   * The largest refund (settlement currency, minor units) a member of this role may make
   * without a second approver; null means no limit. Only counts with `payments:refund`.
   */
  refundLimitMinor: bigint('refund_limit_minor', { mode: 'number' }),
  ...timestamps,
});

export const staffMemberRoles = pgTable(
  'staff_member_roles',
  {
    staffId: integer('staff_id')
      .notNull()
      .references(() => staffMembers.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => staffRoles.id, { onDelete: 'restrict' }),
  },
  (table) => [
    primaryKey({ columns: [table.staffId, table.roleId] }),
    index('staff_member_roles_role_idx').on(table.roleId),
  ],
);

/** Console sessions: only a SHA-256 of the token is stored, as for buyers. */
export const staffSessions = pgTable(
  'staff_sessions',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull().unique(),
    staffId: integer('staff_id')
      .notNull()
      .references(() => staffMembers.id, { onDelete: 'cascade' }),
    /** Signed in with a second factor (or the member has none yet). */
    secondFactorAt: timestamp('second_factor_at', { withTimezone: true }),
    ip: text('ip'),
    userAgent: text('user_agent'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('staff_sessions_staff_idx').on(table.staffId)],
);

/** One-time recovery codes for two-step sign-in; a code is hashed and used at most once. */
export const staffRecoveryCodes = pgTable(
  'staff_recovery_codes',
  {
    id: serial('id').primaryKey(),
    staffId: integer('staff_id')
      .notNull()
      .references(() => staffMembers.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('staff_recovery_codes_staff_idx').on(table.staffId)],
);

/**
 * Single-use links: the first-start setup link that creates the Owner (`setup`) and emailed
 * invitations (`invite`, with the roles the new member will get). Only a hash is stored.
 */
export const staffTokens = pgTable(
  'staff_tokens',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').$type<'setup' | 'invite'>().notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    email: text('email'),
    roleIds: jsonb('role_ids')
      .$type<number[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    locale: varchar('locale', { length: 8 }),
    invitedBy: integer('invited_by').references(() => staffMembers.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('staff_tokens_email_idx').on(table.email)],
);
