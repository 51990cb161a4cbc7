import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Side effects that must happen after a change commits (the order emails), written in the
 * change's own transaction so that neither exists without the other. A worker on every
 * server copy claims due rows (FOR UPDATE SKIP LOCKED plus a lease), runs them and marks
 * them done, retrying failures with backoff (docs/decisions/0093-durable-outbox-and-stock-versions.md).
 */
export const outbox = pgTable(
  'outbox',
  {
    id: serial('id').primaryKey(),
    /** What to do: a topic of server/jobs/outbox-worker.ts, whose handler reads `payload` with its own schema. */
    topic: text('topic').notNull(),
    payload: jsonb('payload').notNull(),
    /** One row per effect: a change that enqueues the same effect twice keeps the first. */
    dedupeKey: text('dedupe_key').notNull().unique(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    doneAt: timestamp('done_at', { withTimezone: true }),
    /** Set when the effect failed for good (bad payload, attempts used up). */
    failedAt: timestamp('failed_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('outbox_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.doneAt} is null and ${table.failedAt} is null`),
  ],
);
