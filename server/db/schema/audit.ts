import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Who made a change: a staff member, the command-line desk, or the shop itself (jobs). */
export type AuditActorType = 'staff' | 'cli' | 'system';

/** What changed, field by field; secrets appear as `[redacted]` (server/domains/audit/audit.service.ts). */
export type AuditChanges = Record<string, { before?: unknown; after?: unknown }>;

/**
 * Append-only record of every change made through the console, the admin API or the
 * command line, written in the same transaction as the change. A trigger refuses UPDATE and
 * DELETE on this table for everyone (migration 0009), the Owner included.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorType: text('actor_type').$type<AuditActorType>().notNull(),
    /** The staff member's id; null for `cli` and `system`. */
    actorId: integer('actor_id'),
    /** What to show for the actor even after the member is gone (their email, `cli`, a job's name). */
    actorLabel: text('actor_label').notNull(),
    /** `area.verb`, e.g. `order.shipped`, `staff.invited`, `customer.erased`. */
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    changes: jsonb('changes').$type<AuditChanges>().notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    requestId: text('request_id'),
  },
  (table) => [
    index('audit_events_entity_idx').on(table.entityType, table.entityId, table.at),
    index('audit_events_actor_idx').on(table.actorType, table.actorId, table.at),
    index('audit_events_action_idx').on(table.action, table.at),
    index('audit_events_at_idx').on(table.at),
  ],
);
