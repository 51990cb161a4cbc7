import type { Database } from './client';

/**
 * A statement a hot path sends on most requests, built once per database handle and prepared
 * by name on each connection (ADR 0178). Drizzle builds a statement's SQL text afresh on every
 * call, about 0.2 ms of CPU for a wide row: more than the round trip itself. Built once, a call
 * costs only its parameters, and PostgreSQL parses and plans it once per connection.
 *
 * The values change per call through `sql.placeholder(name)`; a list is one placeholder used as
 * `= any(...)`, so the text does not depend on its length. Given a transaction instead of the
 * shop's database, the statement is built for that transaction (it must run on its connection)
 * and kept only as long as the transaction is.
 */
export function preparedPerDatabase<Statement>(build: (db: Database) => Statement): (db: Database) => Statement {
  const built = new WeakMap<Database, Statement>();
  return (db) => {
    let statement = built.get(db);
    if (!statement) built.set(db, (statement = build(db)));
    return statement;
  };
}
