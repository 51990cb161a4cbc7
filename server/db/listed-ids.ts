import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * `column in (the ids of the int[] list)`, for a prepared statement that takes a list of ids as
 * one parameter: through `listed_ids` (migration 0020, ADR 0183) PostgreSQL keeps one generic
 * plan for the statement instead of planning it again on every execution, as it does for
 * `= any($1)`.
 */
export function inListedIds(column: SQLWrapper, ids: SQL): SQL {
  return sql`${column} in (select listed from listed_ids(${ids}::int[]) as listed)`;
}
