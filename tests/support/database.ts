import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../server/db/client';

/**
 * Tests run on PGlite by default and on the real PostgreSQL when DATABASE_URL is set. Each
 * test file gets its own database cloned from one migrated and seeded template, so files
 * run in parallel without seeing each other's rows.
 */
export const postgresAdminUrl = process.env.DATABASE_URL;

export function databaseUrlFor(name: string): string {
  const url = new URL(postgresAdminUrl!);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withAdminClient<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgresAdminUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export function templateDumpPath(dataDir: string): string {
  return path.join(dataDir, 'template.pglite.tar.gz');
}

let clones = 0;

export async function openTestDatabase(options: { dataDir: string; runId: string; poolMax?: number }): Promise<{
  handle: DatabaseHandle;
  url?: string;
  drop: () => Promise<void>;
}> {
  if (postgresAdminUrl) {
    const name = `shop_t_${options.runId}_${process.pid}_${++clones}`;
    await withAdminClient((client) => client.query(`create database "${name}" template "shop_tpl_${options.runId}"`));
    const url = databaseUrlFor(name);
    const handle = await openDatabase({ databaseUrl: url, poolMax: options.poolMax });
    return {
      handle,
      url,
      drop: () =>
        withAdminClient((client) => client.query(`drop database if exists "${name}" with (force)`)).then(
          () => undefined,
        ),
    };
  }
  const dump = fs.readFileSync(templateDumpPath(options.dataDir));
  const handle = await openDatabase({ embeddedDir: 'memory://', embeddedFrom: new Blob([dump]) });
  return { handle, drop: async () => {} };
}
