#!/usr/bin/env node
/**
 * Screenshots of the catalogue pages for a visual check: home, a category, search results
 * (and a search without results), in both locales and colour modes, at desktop and phone
 * widths; plus the phone search bar and a category in US dollars.
 *
 *   node scripts/screenshots-catalog.mjs [baseUrl] [outDir]
 *   (defaults: http://127.0.0.1:3300 and /tmp/shots-catalog; SHOTS_FULL=0 for viewport-only
 *   shots, SHOTS_ONLY=<substring> to limit which files are written)
 */
import { mkdir } from 'node:fs/promises';
import { launchChromium } from './lib/chromium.mjs';

const base = process.argv[2] ?? process.env.BASE_URL ?? 'http://127.0.0.1:3300';
const outDir = process.argv[3] ?? '/tmp/shots-catalog';
const fullPage = process.env.SHOTS_FULL !== '0';
const only = process.env.SHOTS_ONLY ?? '';

const pages = [
  { name: 'home', path: '/' },
  { name: 'category', path: '/product/cate/1' },
  { name: 'search', path: { en: '/search?keyword=linen', 'zh-cn': '/search?keyword=%E4%BA%9A%E9%BA%BB' } },
  { name: 'search-empty', path: '/search?keyword=zzzz' },
];
const locales = ['en', 'zh-cn'];
const modes = ['light', 'dark'];
const widths = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 740 },
];

await mkdir(outDir, { recursive: true });
const browser = await launchChromium();

/** Lazy images only load near the viewport: scroll through the page so full-page shots show them. */
async function loadLazyImages(page) {
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += 500) {
      window.scrollTo(0, y);
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    window.scrollTo(0, 0);
  });
  await page.waitForLoadState('networkidle');
}

const problems = [];
try {
  for (const viewport of widths) {
    for (const mode of modes) {
      const context = await browser.newContext({
        viewport: { width: viewport.width, height: viewport.height },
        deviceScaleFactor: 1,
        isMobile: viewport.width < 600,
        hasTouch: viewport.width < 600,
      });
      await context.addCookies([{ name: 'color_mode', value: mode, url: base }]);
      const page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console error on ${page.url()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      for (const locale of locales) {
        for (const target of pages) {
          const file = `${outDir}/${target.name}-${locale}-${mode}-${viewport.name}.png`;
          if (only && !file.includes(only)) continue;
          const path = typeof target.path === 'string' ? target.path : target.path[locale];
          await page.goto(`${base}/${locale}${path}`, { waitUntil: 'networkidle' });
          const overflow = (await page.evaluate(() => document.documentElement.scrollWidth)) - viewport.width;
          if (overflow > 0) problems.push(`${file}: horizontal overflow of ${overflow}px`);
          if (fullPage) await loadLazyImages(page);
          await page.screenshot({ path: file, fullPage });
          console.log(file);
          if (target.name === 'home' && viewport.width < 960 && mode === 'light') {
            const searchFile = file.replace('home-', 'search-bar-');
            await page.locator('.header-search__toggle').click();
            await page.waitForTimeout(250);
            await page.screenshot({ path: searchFile });
            console.log(searchFile);
            await page.keyboard.press('Escape');
            const menuFile = file.replace('home-', 'menu-');
            await page.locator('.menu-button').click();
            // The drawer's code arrives with the first tap; then its 220 ms slide-in.
            await page.locator('dialog.drawer[open]').waitFor();
            await page.waitForFunction(() => document.querySelector('dialog.drawer')?.getAnimations().length === 0);
            await page.screenshot({ path: menuFile });
            console.log(menuFile);
            await page.keyboard.press('Escape');
          }
          if (target.name === 'category' && mode === 'light') {
            // The price panel open, in US dollars.
            const usdFile = file.replace('category-', 'category-usd-');
            if (only && !usdFile.includes(only)) continue;
            await context.addCookies([{ name: 'currency', value: 'USD', url: base }]);
            await page.goto(`${base}/${locale}${path}?min=10&max=60&cur=USD`, { waitUntil: 'networkidle' });
            await page.screenshot({ path: usdFile });
            console.log(usdFile);
            await context.clearCookies({ name: 'currency' });
          }
        }
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
}

if (problems.length > 0) {
  console.log('\nProblems:');
  for (const problem of new Set(problems)) console.log(`  ${problem}`);
}
