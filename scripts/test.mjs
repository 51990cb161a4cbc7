// `npm test`: builds the shop when its sources changed (API and browser tests run against
// the production build), then runs the whole suite with Vitest. Extra arguments go to Vitest.
import { spawnSync } from 'node:child_process';

const build = spawnSync('node', ['scripts/ensure-build.mjs'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const run = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
