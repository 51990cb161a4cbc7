import { getTableColumns, getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/**
 * Rows that travel as one JSON parameter and come back as JSON, so that a statement writing
 * several tables keeps one SQL text whatever the number of rows (ADR 0179): prepared once per
 * connection, it costs only its parameters. Drizzle's builders make a new text for every row
 * count, and their column mapping is reused here so the rows read the same as a select's.
 */
type Columns<Table extends PgTable> = Table['_']['columns'];
type Key<Table extends PgTable> = keyof Columns<Table> & string;

/** The values as `jsonb_populate_record` reads them: keyed by column name (a Date becomes its ISO text). */
export function jsonRow<Table extends PgTable>(
  table: Table,
  values: Partial<Table['$inferInsert']>,
): Record<string, unknown> {
  const columns = getTableColumns(table);
  const row: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const column = columns[key];
    if (!column) throw new Error(`${getTableName(table)} has no column ${key}`);
    row[column.name] = value;
  }
  return row;
}

/**
 * `insert into <table> (<columns>) select ...` from a JSON array of rows, in the array's order:
 * each listed column from the row (`r`), or from `computed` when it is given there (an id
 * returned by an earlier part of the same statement, say). A computed expression may read a
 * key the table does not have from the row's JSON as `source.item`.
 */
export function insertJsonRows<Table extends PgTable>(
  table: Table,
  options: { rows: SQL; columns: ReadonlyArray<Key<Table>>; computed?: Partial<Record<Key<Table>, SQL>> },
): SQL {
  const columns = getTableColumns(table);
  const computed = Object.entries(options.computed ?? {}) as Array<[string, SQL]>;
  const nameOf = (key: string) => {
    const column = columns[key];
    if (!column) throw new Error(`${getTableName(table)} has no column ${key}`);
    return sql.identifier(column.name);
  };
  const targets = [...options.columns.map(nameOf), ...computed.map(([key]) => nameOf(key))];
  const values = [...options.columns.map((key) => sql`r.${nameOf(key)}`), ...computed.map(([, value]) => value)];
  return sql`insert into ${table} (${sql.join(targets, sql`, `)})
    select ${sql.join(values, sql`, `)}
      from jsonb_array_elements(${options.rows}::jsonb) with ordinality as source(item, position),
           jsonb_populate_record(null::${table}, source.item) as r
     order by source.position
    returning *`;
}

/** A `json` value a statement answered: parsed by the driver already, or still its text. */
export function parsedJson(value: unknown): unknown {
  return typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
}

/**
 * Rows read back as JSON (`row_to_json`, `json_agg`) in the shape a drizzle select gives them:
 * keyed by property, timestamps as Dates, JSON columns parsed.
 */
export function rowsFromJson<Table extends PgTable>(table: Table, rows: unknown): Array<Table['$inferSelect']> {
  const list = parsedJson(rows);
  if (list === null) return [];
  if (!Array.isArray(list)) throw new Error(`${getTableName(table)} rows were not a JSON array`);
  const columns = Object.entries(getTableColumns(table));
  return list.map((row: Record<string, unknown>) => {
    const mapped: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const value = row[column.name];
      mapped[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return mapped as Table['$inferSelect'];
  });
}

/** One row read back as JSON (`row_to_json`); see `rowsFromJson`. */
export function rowFromJson<Table extends PgTable>(table: Table, row: unknown): Table['$inferSelect'] {
  const parsed = parsedJson(row);
  const [mapped] = rowsFromJson(table, [parsed]);
  if (!mapped) throw new Error(`${getTableName(table)} row missing`);
  return mapped;
}
