import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { ServerBuild } from 'react-router';
import { buildApp, type BuildAppOptions } from './app';
import { seedDemoData } from './seed';
import { announceSetupLink } from './domains/staff/setup.service';
import { closeAppContext, openAppContext, StartupError } from './runtime';
import { DEMO_RETURN_ADDRESS, loadEnv, type ConfiguredEnv } from './shared/env';
import { createLogger, exitOnceLogged } from './shared/logger';

const BUILD_DIR = path.resolve('build');
/**
 * After the drain: finishing the requests in flight, the jobs (the outbox sends what is due for
 * up to 10 s) and closing the database. A copy still busy past it is stuck, and exits anyway.
 */
const STOP_LIMIT_MS = 15_000;

async function storefrontOptions(
  mode: 'development' | 'production',
): Promise<Pick<BuildAppOptions, 'storefront' | 'devMiddleware'>> {
  if (mode === 'production') {
    const serverEntry = path.join(BUILD_DIR, 'server', 'index.js');
    if (!fs.existsSync(serverEntry))
      throw new StartupError(`No storefront build at ${serverEntry}. Run "npm run build" first.`);
    const build = (await import(pathToFileURL(serverEntry).href)) as ServerBuild;
    return { storefront: { mode, loadBuild: async () => build, clientDir: path.join(BUILD_DIR, 'client') } };
  }
  const { createServer } = await import('vite');
  const vite = await createServer({ server: { middlewareMode: true }, appType: 'custom' });
  return {
    devMiddleware: async (app: FastifyInstance) => {
      await app.register(import('@fastify/middie'));
      app.use(vite.middlewares);
      app.addHook('onClose', () => vite.close());
    },
    storefront: {
      mode,
      loadBuild: () => vite.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>,
    },
  };
}

async function main(): Promise<void> {
  let env: ConfiguredEnv;
  try {
    env = loadEnv();
  } catch (error) {
    // No configured logger yet, but the line is JSON like every other one.
    const startupLog = createLogger({ LOG_LEVEL: 'info', NODE_ENV: 'production' });
    startupLog.fatal({ problems: (error as Error).message }, 'cannot start: invalid configuration');
    return exitOnceLogged(startupLog, 1);
  }
  const log = createLogger(env);
  // The default would print to stderr and skip the JSON log.
  let crashed = false;
  const crash = (line: object, message: string) => {
    if (crashed) return;
    crashed = true;
    log.fatal(line, message);
    exitOnceLogged(log, 1);
  };
  process.on('uncaughtException', (error) => crash({ err: error }, 'uncaught exception: exiting'));
  process.on('unhandledRejection', (reason) => crash({ err: reason }, 'unhandled promise rejection: exiting'));
  const mode = env.NODE_ENV === 'development' ? 'development' : 'production';
  let appContext;
  try {
    appContext = await openAppContext(env, log);
  } catch (error) {
    log.fatal(error instanceof StartupError ? error.message : { err: error }, 'cannot start');
    return exitOnceLogged(log, 1);
  }
  try {
    if (env.SEED_DEMO_DATA) await seedDemoData(appContext, { onlyIfEmpty: true });
    const app = await buildApp({
      appContext,
      ...(await storefrontOptions(mode)),
      backgroundJobs: { orderSweep: true },
    });
    await app.listen({ port: env.PORT, host: env.HOST });
    log.info(
      { database: appContext.database.kind, sharedState: appContext.kv.kind, mode },
      `shop ready on port ${env.PORT}`,
    );
    // First start: the one-time link that creates the Owner (docs/console.md). Test servers never log it.
    await announceSetupLink(appContext);
    if (
      mode === 'production' &&
      env.PUBLIC_URL &&
      /^https?:\/\/(localhost|127\.0\.0\.1)(:|\/|$)/.test(env.PUBLIC_URL)
    ) {
      // npm start's default keeps the two-command start working; a real shop must say where buyers find it.
      log.warn(
        { publicUrl: env.PUBLIC_URL },
        'PUBLIC_URL is a local address: set it to the address buyers use before taking payments',
      );
    }
    if (mode === 'production' && env.AFTER_SALE_RETURN_ADDRESS === DEMO_RETURN_ADDRESS) {
      log.warn('AFTER_SALE_RETURN_ADDRESS is the demo address: set where buyers send returns before approving any');
    }

    let stopping = false;
    const shutdown = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      const started = performance.now();
      log.info(
        { signal, drainMs: env.SHUTDOWN_DRAIN_MS },
        'shutting down: readiness fails now, new connections are refused after the drain',
      );
      const force = setTimeout(() => {
        log.error('shutdown took too long; exiting');
        exitOnceLogged(log, 1);
      }, env.SHUTDOWN_DRAIN_MS + STOP_LIMIT_MS).unref();
      // Also stops the background jobs (server/jobs/background-jobs.ts), after a run in progress.
      await app.stopGracefully(env.SHUTDOWN_DRAIN_MS);
      await closeAppContext(appContext);
      clearTimeout(force);
      log.info({ ms: Math.round(performance.now() - started) }, 'stopped');
      exitOnceLogged(log, 0);
    };
    process.on('SIGTERM', () => void shutdown('SIGTERM'));
    process.on('SIGINT', () => void shutdown('SIGINT'));
  } catch (error) {
    log.fatal(error instanceof StartupError ? error.message : { err: error }, 'cannot start');
    await closeAppContext(appContext);
    return exitOnceLogged(log, 1);
  }
}

await main();
