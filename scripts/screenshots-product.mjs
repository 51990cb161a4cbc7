#!/usr/bin/env node
/**
 * Screenshots of the product detail page for a visual check: both locales and colour
 * modes at desktop and phone widths, plus the open image viewer and a sold-out choice.
 *
 *   node scripts/screenshots-product.mjs [baseUrl] [outDir]
 *   (defaults: http://127.0.0.1:3400 and /tmp/shots-product; env PRODUCT_ID picks the
 *   product (default: the first one with a sold-out SKU), SHOTS_ONLY=<substring> limits the files)
 */
import { mkdir } from 'node:fs/promises';
import { launchChromium } from './lib/chromium.mjs';

const base = process.argv[2] ?? process.env.BASE_URL ?? 'http://127.0.0.1:3400';
const outDir = process.argv[3] ?? '/tmp/shots-product';
const only = process.env.SHOTS_ONLY ?? '';

async function api(path) {
  const response = await fetch(base + path, { headers: { lang: 'en' } });
  return (await response.json()).data;
}

/** A product with a sold-out SKU shows every state of the page. */
async function pickProduct() {
  if (process.env.PRODUCT_ID) return api(`/v1/good/${process.env.PRODUCT_ID}`);
  const list = await api('/v1/good/list?page_size=50');
  for (const card of list.records) {
    const product = await api(`/v1/good/${card.id}`);
    if (product.property.length > 1 && product.good_sku.some((sku) => sku.stock === 0)) return product;
  }
  return api(`/v1/good/${list.records[0].id}`);
}

const product = await pickProduct();
const soldOut = product.good_sku.find((sku) => sku.stock === 0);
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
        if (message.type() === 'error') problems.push(`console error on ${page.url()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      for (const locale of locales) {
        const shoot = async (name, options = {}) => {
          const file = `${outDir}/${name}-${locale}-${mode}-${viewport.name}.png`;
          if (only && !file.includes(only)) return;
          await page.screenshot({ path: file, fullPage: options.fullPage ?? true });
          console.log(file);
        };
        await page.goto(`${base}/${locale}/product/${product.id}`, { waitUntil: 'networkidle' });
        const overflow = (await page.evaluate(() => document.documentElement.scrollWidth)) - viewport.width;
        if (overflow > 0) problems.push(`product ${locale} ${mode} ${viewport.name}: horizontal overflow of ${overflow}px`);
        await shoot('product');
        if (mode === 'light') {
          // A buyer who picked another display currency sees converted, approximate prices.
          await context.addCookies([{ name: 'currency', value: 'USD', url: base }]);
          await page.goto(`${base}/${locale}/product/${product.id}`, { waitUntil: 'networkidle' });
          await shoot('usd', { fullPage: false });
          await context.clearCookies({ name: 'currency' });
        }
        if (soldOut) {
          await page.goto(`${base}/${locale}/product/${product.id}?sku=${soldOut.id}`, { waitUntil: 'networkidle' });
          await shoot('sold-out', { fullPage: false });
        }
        if (mode === 'light' || viewport.name === 'desktop') {
          await page.locator('.gallery__main').click();
          await page.locator('dialog.viewer img').waitFor();
          await page.waitForTimeout(400);
          await shoot('viewer', { fullPage: false });
          await page.keyboard.press('+');
          await page.keyboard.press('+');
          await page.keyboard.press('+');
          await page.waitForTimeout(400);
          await shoot('viewer-zoomed', { fullPage: false });
          await page.keyboard.press('Escape');
        }
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
}

if (problems.length) {
  console.error(problems.join('\n'));
  process.exitCode = 1;
}
