import type { AuditChanges } from '../../db/schema/audit';
import { auditEvents } from '../../db/schema';
import { and, asc, eq } from 'drizzle-orm';
import type { ActingContext, AppContext, AuditActor, Transaction } from '../../context';

/** Field names whose values never reach the audit log, whatever entity they belong to. */
const SECRET_FIELD = /password|secret|token|recovery|hash|code_?hash|otp/i;
const REDACTED = '[redacted]';

export interface AuditEntry {
  /** `area.verb`: `order.shipped`, `staff.invited`, `role.updated`... (docs/console.md lists them). */
  action: string;
  entityType: string;
  entityId: string | number;
  /** The entity's fields before and after the change; only what differs is kept. */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  /**
   * Further fields to keep out of the log as values (personal data such as a buyer's email):
   * the log says that they changed, not what they were.
   */
  redact?: readonly string[];
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** What differs between two versions of an entity, with secrets and the listed fields redacted. */
export function auditChanges(
  before: Record<string, unknown> | null | undefined,
  after: Record<string, unknown> | null | undefined,
  redact: readonly string[] = [],
): AuditChanges {
  const changes: AuditChanges = {};
  const fields = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const field of fields) {
    const was = before?.[field];
    const is = after?.[field];
    if (before && after && same(was, is)) continue;
    const hidden = SECRET_FIELD.test(field) || redact.includes(field);
    const change: { before?: unknown; after?: unknown } = {};
    if (before && was !== undefined) change.before = hidden ? REDACTED : toJson(was);
    if (after && is !== undefined) change.after = hidden ? REDACTED : toJson(is);
    changes[field] = change;
  }
  return changes;
}

function toJson(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}

/**
 * Appends one event to the audit log. It must run inside the transaction of the change it
 * records (`ctx.db` is that transaction), so the change and its record commit together.
 */
export async function recordAudit(ctx: ActingContext & { db: Transaction }, entry: AuditEntry): Promise<void> {
  // An edit that changed nothing (a form saved as it was) is not an event.
  if (entry.before && entry.after && Object.keys(auditChanges(entry.before, entry.after)).length === 0) return;
  await appendAuditEvent(ctx.db, ctx.actor, entry);
}

async function appendAuditEvent(db: Transaction, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await db.insert(auditEvents).values({
    actorType: actor.type,
    actorId: actor.id,
    actorLabel: actor.label,
    action: entry.action,
    entityType: entry.entityType,
    entityId: String(entry.entityId),
    changes: auditChanges(entry.before, entry.after, entry.redact),
    ip: actor.ip ?? null,
    userAgent: actor.userAgent?.slice(0, 500) ?? null,
    requestId: actor.requestId ?? null,
  });
}

/** The command-line desk's actor (`npm run shop -- ...`). */
export const CLI_ACTOR: AuditActor = { type: 'cli', id: null, label: 'cli' };

/** A background job's actor, named after the job. */
export function systemActor(job: string): AuditActor {
  return { type: 'system', id: null, label: job };
}

/** An entity's audit events, oldest first: the raw material of order and customer timelines. */
export async function auditTrailOf(ctx: AppContext, entityType: string, entityId: string | number, limit = 500) {
  return ctx.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entityType, entityType), eq(auditEvents.entityId, String(entityId))))
    .orderBy(asc(auditEvents.at), asc(auditEvents.id))
    .limit(limit);
}
