import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../server/db/client.ts';

async function adminQuery(adminUrl, statement) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/**
 * Where a benchmark's shop keeps its data: a fresh PostgreSQL database beside DATABASE_URL's
 * when that is set (dropped by `remove`), else an embedded database under a temporary folder.
 * `serverEnv` is what the spawned shop needs to use it; `open` opens it from the bench itself.
 */
export async function createBenchDatabase(name) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `shop-bench-${name}-`));
  const adminUrl = process.env.DATABASE_URL;
  let databaseUrl;
  if (adminUrl) {
    const database = `shop_bench_${name}_${Date.now().toString(36)}`;
    await adminQuery(adminUrl, `create database "${database}"`);
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    databaseUrl = url.toString();
  }
  return {
    dataDir,
    databaseUrl,
    label: databaseUrl ? 'PostgreSQL' : 'PGlite (embedded)',
    serverEnv: databaseUrl ? { DATABASE_URL: databaseUrl } : {},
    open: () => openDatabase(databaseUrl ? { databaseUrl } : { embeddedDir: path.join(dataDir, 'db') }),
    async remove() {
      if (databaseUrl)
        await adminQuery(adminUrl, `drop database if exists "${new URL(databaseUrl).pathname.slice(1)}" with (force)`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
