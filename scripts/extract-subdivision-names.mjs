// Regenerates server/domains/areas/data/subdivision-names-zh.json from the iso3166-2-db
// package: the Chinese names of every country's first-level subdivisions. The package is
// 280 MB in 42,000 files for about 1 MB of names we use, so it is not a dependency:
//   npm install --no-save iso3166-2-db && node scripts/extract-subdivision-names.mjs
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const regionsDir = path.join(path.dirname(require.resolve('iso3166-2-db/package.json')), 'regions');
const version = require('iso3166-2-db/package.json').version;
const names = {};
for (const country of fs.readdirSync(regionsDir).sort()) {
  const file = path.join(regionsDir, country, 'zh.json');
  if (!fs.existsSync(file)) continue;
  const regions = JSON.parse(fs.readFileSync(file, 'utf8'));
  const entries = regions.filter((region) => region.iso && region.name).map((region) => [region.iso, region.name]);
  if (entries.length) names[country] = Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
}
const out = path.resolve('server/domains/areas/data/subdivision-names-zh.json');
fs.writeFileSync(
  out,
  JSON.stringify({ source: `iso3166-2-db@${version} (MIT; names from OpenStreetMap and Wikipedia)`, names }) + '\n',
);
console.log(`wrote ${out}: ${Object.keys(names).length} countries`);
