import pg from 'pg';

/**
 * SQLSTATE classes and codes of a statement refused with the session left clean: integrity
 * (23: a CHECK, a unique index), data (22: a bad value), rollback (40: serialization, deadlock),
 * a cancelled statement, a lock not available, an exception raised by SQL. Others may leave the
 * session unusable (a prepared statement whose plan no longer fits, an aborted transaction),
 * so their connection is dropped as before.
 */
const CLEAN_REFUSAL = /^(23|22|40)...$|^(57014|55P03|P0001)$/;

/** True when PostgreSQL refused one statement and the connection can answer the next one. */
export function isStatementRefusal(error: unknown): boolean {
  return error instanceof pg.DatabaseError && CLEAN_REFUSAL.test(error.code ?? '');
}

/**
 * A `pg` pool whose one-statement queries keep their connection when PostgreSQL refuses the
 * statement cleanly (`isStatementRefusal`). `Pool.query` in pg-pool hands any error to
 * `release`, which closes the connection: every refused order of a flash sale (the stock's CHECK) then cost a new connection, a new
 * backend process and the preparation of every named statement again, and the sale slowed to a
 * crawl (ADR 0180). Connections that broke are still dropped, and the callback form of `query`
 * (not used by the shop) keeps pg-pool's own behaviour.
 */
export function createPostgresPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  const dropOnAnyError = pool.query.bind(pool) as (...args: unknown[]) => unknown;

  async function keepOnRefusal(statement: string | pg.QueryConfig, values?: unknown[]): Promise<pg.QueryResult> {
    const client = await pool.connect();
    let broken: Error | undefined;
    // A checked-out client's connection failing emits 'error'; unheard, it would end the process.
    const onConnectionError = (error: Error) => {
      broken = error;
    };
    client.on('error', onConnectionError);
    try {
      return await client.query(statement, values);
    } catch (error) {
      if (!isStatementRefusal(error)) broken = error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      client.removeListener('error', onConnectionError);
      client.release(broken);
    }
  }

  pool.query = ((...args: unknown[]) =>
    args.some((arg) => typeof arg === 'function')
      ? dropOnAnyError(...args)
      : keepOnRefusal(args[0] as string | pg.QueryConfig, args[1] as unknown[] | undefined)) as typeof pool.query;
  return pool;
}
