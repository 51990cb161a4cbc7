import { seedDemoData } from '../seed';
import { closeAppContext, openAppContext, StartupError } from '../runtime';
import { loadEnv } from '../shared/env';
import { createLogger } from '../shared/logger';

/** `npm run db:migrate` and `npm run db:seed`: the same steps the server takes at start, on demand. */
const command = process.argv[2];
if (command !== 'migrate' && command !== 'seed') {
  console.error('usage: db.ts migrate|seed');
  process.exit(2);
}
const env = loadEnv();
const log = createLogger(env);
try {
  const ctx = await openAppContext(env, log);
  if (command === 'seed') await seedDemoData(ctx);
  log.info({ database: ctx.database.kind }, command === 'seed' ? 'demo data loaded' : 'migrations applied');
  await closeAppContext(ctx);
} catch (error) {
  log.fatal(error instanceof StartupError ? error.message : { err: error }, `${command} failed`);
  process.exit(1);
}
