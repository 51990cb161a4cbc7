import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../server/db/client';
import { postgresAdminUrl, withAdminClient } from '../support/database';

/** The pid of the backend process that answered: the same pid is the same connection. */
async function backendPid(handle: DatabaseHandle): Promise<number> {
  const result = (await handle.db.execute(sql`select pg_backend_pid() as pid`)) as unknown as {
    rows: Array<{ pid: number }>;
  };
  return result.rows[0]!.pid;
}

// The pool is the PostgreSQL driver's; the embedded database has no connections to lose.
describe.skipIf(!postgresAdminUrl)('the PostgreSQL pool', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openDatabase({ databaseUrl: postgresAdminUrl, poolMax: 1 });
  });
  afterAll(async () => {
    await handle.close();
  });

  it('keeps its connection when PostgreSQL refuses a statement (a CHECK, a unique index, a bad value)', async () => {
    const before = await backendPid(handle);
    await handle.db.execute(sql`create temporary table kept (n integer primary key check (n > 0))`);
    await handle.db.execute(sql`insert into kept values (1)`);

    await expect(handle.db.execute(sql`insert into kept values (-1)`)).rejects.toThrow();
    await expect(handle.db.execute(sql`insert into kept values (1)`)).rejects.toThrow();
    await expect(handle.db.execute(sql`select 1 / 0`)).rejects.toThrow();

    expect(await backendPid(handle)).toBe(before);
    // The session's temporary table is still there: the same session, not a new one with the same pid.
    const rows = (await handle.db.execute(sql`select n from kept`)) as unknown as { rows: Array<{ n: number }> };
    expect(rows.rows).toEqual([{ n: 1 }]);
  });

  it('drops its connection after an error that may leave the session unusable', async () => {
    const before = await backendPid(handle);
    await expect(handle.db.execute(sql`select * from no_such_table`)).rejects.toThrow();
    expect(await backendPid(handle)).not.toBe(before);
  });

  it('drops a connection the server ended during a statement and answers the next one on a new connection', async () => {
    const before = await backendPid(handle);
    // drizzle runs a query when it is awaited: `then` sends it now.
    const sleeping = handle.db.execute(sql`select pg_sleep(10)`).then(
      () => 'finished',
      (error: unknown) => error,
    );
    await expect
      .poll(() =>
        withAdminClient(async (admin) => {
          const ended = await admin.query(
            `select pg_terminate_backend(pid) as ended from pg_stat_activity where pid = $1 and query like 'select pg_sleep%'`,
            [before],
          );
          return ended.rows.length;
        }),
      )
      .toBe(1);
    expect(await sleeping).toBeInstanceOf(Error);

    const after = await backendPid(handle);
    expect(after).not.toBe(before);
  });
});
