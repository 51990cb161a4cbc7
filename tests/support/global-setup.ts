import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { TestProject } from 'vitest/node';
import type { AppContext } from '../../server/context';
import { openDatabase } from '../../server/db/client';
import { exchangeRates } from '../../server/db/schema';
import { seedDemoData } from '../../server/seed';
import { createAppContext } from '../../server/runtime';
import { loadEnv } from '../../server/shared/env';
import { databaseUrlFor, postgresAdminUrl, templateDumpPath, withAdminClient } from './database';
import { startLocalS3 } from './local-s3';

declare module 'vitest' {
  export interface ProvidedContext {
    dataDir: string;
    runId: string;
    /** With TEST_S3=1: the S3_* settings of the run's local S3 server, which every test shop uses. */
    s3Env: Record<string, string>;
  }
}

/** Builds one migrated, seeded template database for the whole run. */
export default async function setup(project: TestProject) {
  const runId = `${Date.now().toString(36)}${process.pid}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-test-'));
  // Demo pictures are deterministic and take a while to draw, so runs share one copy.
  const imageCache = path.resolve('node_modules/.cache/shop-test-images');
  fs.mkdirSync(imageCache, { recursive: true });
  fs.symlinkSync(imageCache, path.join(dataDir, 'images'));
  // TEST_S3=1 (.ci/run's PostgreSQL suite): images and uploads go to a local S3 server (ADR 0150).
  const s3 = process.env.TEST_S3 === '1' ? await startLocalS3() : null;
  const env = loadEnv({
    ...process.env,
    ...s3?.env,
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SESSION_SECRET: 'test-secret-'.padEnd(40, 'x'),
  });
  const log = pino({ level: 'silent' });

  if (postgresAdminUrl) {
    const template = `shop_tpl_${runId}`;
    await withAdminClient((client) => client.query(`create database "${template}"`));
    const ctx = await createAppContext(env, log, await openDatabase({ databaseUrl: databaseUrlFor(template) }));
    await seedDemoData(ctx);
    await rateTheDemoRatesToday(ctx);
    await ctx.database.close();
    await ctx.kv.close();
  } else {
    const ctx = await createAppContext(env, log, await openDatabase({ embeddedDir: 'memory://' }));
    await seedDemoData(ctx);
    await rateTheDemoRatesToday(ctx);
    const client = (ctx.db as unknown as { $client: { dumpDataDir(c: 'gzip'): Promise<Blob> } }).$client;
    const dump = await client.dumpDataDir('gzip');
    fs.writeFileSync(templateDumpPath(dataDir), Buffer.from(await dump.arrayBuffer()));
    await ctx.database.close();
    await ctx.kv.close();
  }

  project.provide('dataDir', dataDir);
  project.provide('runId', runId);
  project.provide('s3Env', s3?.env ?? {});

  return async () => {
    if (postgresAdminUrl) {
      await withAdminClient(async (client) => {
        const { rows } = await client.query<{ datname: string }>(
          `select datname from pg_database where datname like $1`,
          [`shop_%${runId}%`],
        );
        for (const { datname } of rows) await client.query(`drop database if exists "${datname}" with (force)`);
      });
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
    await s3?.close();
  };
}

/**
 * The seed dates its demo rates to the day they were true (2026-11-27), so three days later they
 * are stale and buyers are charged in CNY. Tests of charging in the buyer's currency must not
 * depend on the calendar: the template's rates are set as if staff had just confirmed them.
 */
async function rateTheDemoRatesToday(ctx: AppContext): Promise<void> {
  await ctx.db.update(exchangeRates).set({ setAt: new Date() });
}
