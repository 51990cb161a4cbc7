// One Lighthouse run (mobile profile) against an already running shop, with the metrics and
// the audits that cost points: node bench/lighthouse-one.mjs http://127.0.0.1:3000/en/
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/lib/chromium.mjs';

const url = process.argv[2];
const chrome = await chromeLauncher.launch({
  chromePath: CHROMIUM_PATH,
  chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
});
try {
  await fetch(url);
  const { lhr } = await lighthouse(url, {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
  });
  for (const [id, category] of Object.entries(lhr.categories)) console.log(id, Math.round(category.score * 100));
  for (const id of [
    'first-contentful-paint',
    'largest-contentful-paint',
    'total-blocking-time',
    'cumulative-layout-shift',
    'speed-index',
    'interactive',
    'bootup-time',
    'mainthread-work-breakdown',
  ]) {
    console.log(`  ${id}: ${lhr.audits[id]?.displayValue} (score ${lhr.audits[id]?.score})`);
  }
  const lcp = lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet;
  console.log('  LCP element:', lcp);
  for (const audit of Object.values(lhr.audits)) {
    if (
      audit.score !== null &&
      audit.score < 0.9 &&
      !['informative', 'manual', 'notApplicable'].includes(audit.scoreDisplayMode)
    ) {
      console.log(
        `  low: ${audit.id} ${audit.displayValue ?? ''} ${audit.details?.overallSavingsMs ? `saves ${audit.details.overallSavingsMs} ms` : ''}`,
      );
    }
  }
  const scripts = (lhr.audits['network-requests']?.details?.items ?? []).filter(
    (item) => item.resourceType === 'Script',
  );
  console.log(
    '  JS transfer KB',
    (scripts.reduce((t, i) => t + (i.transferSize ?? 0), 0) / 1024).toFixed(1),
    'in',
    scripts.length,
    'requests',
  );
} finally {
  await chrome.kill();
}
