import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { auditEvents } from '../../db/schema';
import type { AppContext } from '../../context';
import {
  AUDIT_ACTOR_TYPES,
  type AuditEventView,
  type AuditFacets,
  type AuditListQuery,
  type AuditPage,
} from './audit.schemas';

/**
 * The audit log viewer (GET /v1/admin/audit). Reading only: the log has no update or delete
 * path in the code, and a trigger refuses both in the database (migration 0009).
 */

type AuditRow = typeof auditEvents.$inferSelect;

export function auditEventViewOf(row: AuditRow): AuditEventView {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor_type: row.actorType,
    actor_id: row.actorId,
    actor_label: row.actorLabel,
    action: row.action,
    entity_type: row.entityType,
    entity_id: row.entityId,
    changes: row.changes,
    ip: row.ip,
    user_agent: row.userAgent,
    request_id: row.requestId,
  };
}

function filtersOf(query: AuditListQuery): SQL | undefined {
  return and(
    query.actor_type ? eq(auditEvents.actorType, query.actor_type) : undefined,
    query.actor_id ? eq(auditEvents.actorId, query.actor_id) : undefined,
    query.entity_type ? eq(auditEvents.entityType, query.entity_type) : undefined,
    query.entity_id ? eq(auditEvents.entityId, query.entity_id) : undefined,
    query.action ? eq(auditEvents.action, query.action) : undefined,
    query.from ? gte(auditEvents.at, query.from) : undefined,
    query.to ? lt(auditEvents.at, query.to) : undefined,
  );
}

/**
 * A page of events, newest first. Each filter matches the leading columns of one of the log's
 * indexes (entity, actor, action, at), which also give the order, so a page reads only its
 * own rows plus one more to tell whether an older page exists.
 */
export async function listAuditEvents(ctx: AppContext, query: AuditListQuery): Promise<AuditPage> {
  const rows = await ctx.db
    .select()
    .from(auditEvents)
    .where(filtersOf(query))
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(query.page_size + 1)
    .offset((query.page - 1) * query.page_size);
  return {
    records: rows.slice(0, query.page_size).map(auditEventViewOf),
    page: query.page,
    page_size: query.page_size,
    has_more: rows.length > query.page_size,
  };
}

/**
 * The distinct values of a column that leads an index, by hopping from one value to the next
 * through the index (a loose index scan), so the cost follows the number of distinct values,
 * not the size of the log.
 */
async function distinctValues(ctx: AppContext, column: 'action' | 'entity_type'): Promise<string[]> {
  const name = sql.identifier(column);
  const result = await ctx.db.execute(sql`
    with recursive hop(value) as (
      (select ${name} from audit_events order by ${name} limit 1)
      union all
      select (select ${name} from audit_events where ${name} > hop.value order by ${name} limit 1)
        from hop where hop.value is not null
    )
    select value from hop where value is not null`);
  return (result as unknown as { rows: Array<{ value: string }> }).rows.map((row) => row.value);
}

/** What the viewer's filter dropdowns offer. */
export async function listAuditFacets(ctx: AppContext): Promise<AuditFacets> {
  const actions = await distinctValues(ctx, 'action');
  const entityTypes = await distinctValues(ctx, 'entity_type');
  return { actions, entity_types: entityTypes, actor_types: [...AUDIT_ACTOR_TYPES] };
}
