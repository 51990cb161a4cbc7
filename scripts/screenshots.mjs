#!/usr/bin/env node
/**
 * Screenshots of the storefront shell for a visual check: home, FAQ, contact, a 404 page,
 * in both locales and colour modes, at desktop and phone widths.
 *
 *   node scripts/screenshots.mjs [baseUrl] [outDir]
 *   (defaults: http://127.0.0.1:3200 and /tmp/shots; env SHOTS_FULL=0 for viewport-only shots,
 *   SHOTS_ONLY=<substring> to limit which files are written)
 */
import { mkdir } from 'node:fs/promises';
import { launchChromium } from './lib/chromium.mjs';

const base = process.argv[2] ?? process.env.BASE_URL ?? 'http://127.0.0.1:3200';
const outDir = process.argv[3] ?? '/tmp/shots';
const fullPage = process.env.SHOTS_FULL !== '0';
const only = process.env.SHOTS_ONLY ?? '';

const pages = [
  { name: 'home', path: '/' },
  { name: 'faq', path: '/faq' },
  { name: 'videos', path: '/videos' },
  { name: 'story', path: '/our-story' },
  { name: 'contact', path: '/contact-us' },
  { name: '404', path: '/no-such-page' },
];
const locales = ['en', 'zh-cn'];
const modes = ['light', 'dark'];
const widths = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 740 },
];

await mkdir(outDir, { recursive: true });
const browser = await launchChromium();

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
        if (message.type() === 'error') problems.push(`console error on ${page.url()}: ${message.text()} ${message.location().url ?? ''}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      for (const locale of locales) {
        for (const target of pages) {
          const file = `${outDir}/${target.name}-${locale}-${mode}-${viewport.name}.png`;
          if (only && !file.includes(only)) continue;
          await page.goto(`${base}/${locale}${target.path}`, { waitUntil: 'networkidle' });
          // Compared with the configured width: a phone viewport widens itself to fit overflowing content.
          const overflow = (await page.evaluate(() => document.documentElement.scrollWidth)) - viewport.width;
          if (overflow > 0) problems.push(`${file}: horizontal overflow of ${overflow}px`);
          await page.screenshot({ path: file, fullPage });
          console.log(file);
          if (target.name === 'home' && viewport.width < 960) {
            // The phone menu drawer, opened.
            await page.getByRole('button', { name: locale === 'en' ? 'Open menu' : '打开菜单' }).click();
            await page.waitForTimeout(300);
            const drawerFile = file.replace('home-', 'menu-');
            await page.screenshot({ path: drawerFile });
            console.log(drawerFile);
            await page.keyboard.press('Escape');
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
