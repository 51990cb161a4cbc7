// `npm start` on a fresh clone must serve the shop, so the first start builds it. Later
// starts rebuild only when a source file is newer than the last build.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const STAMP = 'build/.stamp';
const SOURCES = ['app', 'server', 'i18n', 'public', 'package-lock.json', 'vite.config.ts', 'react-router.config.ts'];

function newestMtime(entry) {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

const builtAt = fs.existsSync(STAMP) ? fs.statSync(STAMP).mtimeMs : 0;
const changedAt = Math.max(...SOURCES.map(newestMtime));
if (builtAt >= changedAt) process.exit(0);

console.log(builtAt ? 'Sources changed since the last build; rebuilding…' : 'First start: building the shop…');
const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
fs.writeFileSync(STAMP, new Date().toISOString());
