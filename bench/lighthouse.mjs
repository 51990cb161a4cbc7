// `npm run bench:lighthouse`: Lighthouse 12 (mobile profile) against the built server in
// Debian's Chromium, on the home, a category and a product page, in both languages.
// Prints the four category scores and the JavaScript each page loads: as transferred (the
// server sends brotli to Chromium) and the same scripts' gzip size (what the issue counts).
//   npm run bench:lighthouse -- --record    also appends the table to docs/benchmarks.md
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/lib/chromium.mjs';
import { ensureBuilt, startBuiltShop } from './lib/processes.mjs';

const record = process.argv.includes('--record');

/** Bytes of a URL as sent with `Accept-Encoding: gzip` (the body is not decompressed). */
function gzipBytes(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
        let bytes = 0;
        response.on('data', (chunk) => (bytes += chunk.length));
        response.on('end', () => resolve(bytes));
      })
      .on('error', reject);
  });
}

ensureBuilt();
const shop = await startBuiltShop({ name: 'lighthouse' });
const origin = shop.url;
const chrome = await chromeLauncher.launch({
  chromePath: CHROMIUM_PATH,
  chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
});

try {
  const category = (await (await fetch(`${origin}/v1/goodGroup/list/2`)).json()).data[0].id;
  const product = (await (await fetch(`${origin}/v1/good/list?sort=best_selling&page_size=1`)).json()).data.records[0]
    .id;
  const pages = [];
  for (const locale of ['en', 'zh-cn']) {
    pages.push(
      [`home (${locale})`, `/${locale}`],
      [`category (${locale})`, `/${locale}/product/cate/${category}`],
      [`product (${locale})`, `/${locale}/product/${product}`],
    );
  }
  const rows = [];
  for (const [name, pathname] of pages) {
    await fetch(origin + pathname); // warm the response cache, as a live shop's would be
    const { lhr } = await lighthouse(origin + pathname, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    });
    const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const scripts = (lhr.audits['network-requests']?.details?.items ?? []).filter(
      (item) => item.resourceType === 'Script',
    );
    const jsKb = scripts.reduce((total, item) => total + (item.transferSize ?? 0), 0) / 1024;
    const jsGzipKb =
      (await Promise.all(scripts.map((item) => gzipBytes(item.url)))).reduce((total, bytes) => total + bytes, 0) / 1024;
    const failing = Object.values(lhr.audits)
      .filter(
        (audit) =>
          audit.score !== null &&
          audit.score < 0.9 &&
          audit.scoreDisplayMode !== 'informative' &&
          audit.scoreDisplayMode !== 'manual',
      )
      .map((audit) => audit.id);
    rows.push({
      name,
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
      jsKb,
      jsGzipKb,
      scriptCount: scripts.length,
      lcp: lhr.audits['largest-contentful-paint']?.displayValue,
      failing,
    });
  }
  const table = [
    '| page | Performance | Accessibility | Best Practices | SEO | JS transferred (br) | JS gzip | scripts | LCP |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.name} | ${row.performance} | ${row.accessibility} | ${row.bestPractices} | ${row.seo} | ${row.jsKb.toFixed(1)} KB | ${row.jsGzipKb.toFixed(1)} KB | ${row.scriptCount} | ${row.lcp} |`,
    ),
  ].join('\n');
  console.log(`\n${table}\n`);
  for (const row of rows)
    if (row.failing.length) console.log(`${row.name}: audits below 0.9: ${row.failing.join(', ')}`);
  if (record) {
    const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, Lighthouse 12 mobile profile, Chromium at ${CHROMIUM_PATH}`;
    const load = `load average (1 min) ${os.loadavg()[0].toFixed(1)} at the end; ${new Date().toISOString()}`;
    fs.appendFileSync(
      'docs/benchmarks.md',
      `\n## ${new Date().toISOString().slice(0, 10)}: Lighthouse\n\nMachine: ${machine}\nLoad: ${load}\n\n${table}\n`,
    );
    console.log('Recorded in docs/benchmarks.md');
  }
} finally {
  await chrome.kill();
  await shop.stop();
}
