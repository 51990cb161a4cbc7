import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, smallint, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    /** Stored trimmed and lower-cased, so uniqueness ignores case. */
    email: text('email').notNull().unique(),
    /** Shown as typed; uniqueness is decided by the two forms below (server/domains/customers/usernames.ts). */
    username: text('username').notNull().unique(),
    /** NFKC and case folded. Null only until the start-up backfill has run on rows older than it. */
    usernameKey: text('username_key').unique(),
    /** TR39 confusable skeleton of the key: names that look alike share it. */
    usernameSkeleton: text('username_skeleton').unique(),
    mobile: text('mobile'),
    /** `scrypt$N$r$p$salt$hash` (server/domains/customers/passwords.ts); null for accounts made by code or Google. */
    passwordHash: text('password_hash'),
    avatar: text('avatar'),
    /** 1 male, 2 female, 0 not given (SPEC section 3). */
    sex: smallint('sex').$type<0 | 1 | 2>().notNull().default(0),
    /** When the owner first proved the address (emailed code or Google); null for password sign-ups until then. */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** Set by staff in the console: a disabled buyer cannot sign in and every session is revoked. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /** Personal data was erased on request; the row stays, anonymised, for the orders that point at it. */
    erasedAt: timestamp('erased_at', { withTimezone: true }),
    /**
     * Moves whenever anything the buyer's account pages show changes (their orders, payments,
     * refunds, after-sale cases, addresses, this row): triggers keep it, whoever writes
     * (migration 0016, ADR 0095). A kept copy of an account page is good while it has not moved.
     */
    pagesVersion: integer('pages_version').notNull().default(0),
    ...timestamps,
  },
  (table) => [
    // The console's customer list: newest first, and search by any part of email, username or mobile (pg_trgm, migration 0001).
    index('users_created_idx').on(table.createdAt),
    index('users_email_trgm_idx').using('gin', sql`${table.email} gin_trgm_ops`),
    index('users_username_trgm_idx').using('gin', sql`${table.username} gin_trgm_ops`),
    index('users_mobile_trgm_idx').using('gin', sql`${table.mobile} gin_trgm_ops`),
  ],
);

/**
 * Opaque session tokens: only a SHA-256 of the token is stored, so a database leak does
 * not hand out live sessions. Revocation sets `revoked_at`.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** Set when a sliding refresh replaced this token; it then lives only for a short grace period. */
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
);

/**
 * Sign-in identities from other providers (Google's `sub`), linked to one user each.
 * Linking to an existing account happens only through an email the provider verified.
 */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique('user_identities_provider_subject_unique').on(table.provider, table.subject),
    index('user_identities_user_idx').on(table.userId),
  ],
);
