import { sql, type SQL } from 'drizzle-orm';

/**
 * A condition, always true, that makes the part of a statement it stands in read each of
 * `parts` (other parts of the same statement, by name) to the end first. PostgreSQL runs a
 * statement's data-modifying parts in an order of its own; reading a part forces it to
 * finish, so a lock taken by the reading part comes after the parts' writes (ADR 0179).
 */
export function runsAfter(parts: readonly SQL[]): SQL {
  if (!parts.length) return sql`true`;
  return sql.join(
    parts.map((part) => sql`(select count(*) from ${part}) >= 0`),
    sql` and `,
  );
}
