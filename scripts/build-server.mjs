// Bundles the Fastify server (not the storefront, which React Router builds) into
// build/app-server/main.js. Packages stay external and load from node_modules.
import { build } from 'esbuild';

await build({
  entryPoints: ['server/main.ts', 'server/cli/db.ts', 'server/cli/shop.ts'],
  outdir: 'build/app-server',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
