#!/usr/bin/env node
/**
 * Screenshots of the checkout screens for a visual check: product purchase box, cart,
 * address book and its dialog, confirm order, pay, the sandbox payment page, the payment
 * result, My Orders and order detail (shipped, with tracking), in both locales and colour
 * modes at desktop and 390 px.
 *
 *   node scripts/screenshots-checkout.mjs [baseUrl] [outDir]
 *   (defaults: http://127.0.0.1:3400 and /tmp/shots-checkout. The server must run with
 *   CAPTCHA_TEST_ANSWER (env CAPTCHA_ANSWER here, default 2468) and the sandbox payment
 *   provider; DATABASE_URL must point at the server's PostgreSQL so the script can ship an
 *   order with `npm run shop`. SHOTS_ONLY=<substring> limits the files.)
 */
import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { launchChromium } from './lib/chromium.mjs';

const base = process.argv[2] ?? process.env.BASE_URL ?? 'http://127.0.0.1:3400';
const outDir = process.argv[3] ?? '/tmp/shots-checkout';
const only = process.env.SHOTS_ONLY ?? '';
const captchaAnswer = process.env.CAPTCHA_ANSWER ?? '2468';

let session = {};
async function call(path, { method = 'GET', body, headers = {} } = {}) {
  const response = await fetch(base + path, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), lang: 'en', ...session, ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await response.json();
  if (json.code !== 200) throw new Error(`${method} ${path}: ${JSON.stringify(json)}`);
  return json.data;
}

/** A fresh buyer with two addresses, a cart of two lines and four orders in different states. */
async function prepareBuyer() {
  const captcha = await call('/v1/captcha', { method: 'POST', body: { captcha_type: 'digit' } });
  const suffix = Date.now().toString(36);
  const answer = await call('/v1/user/registe', {
    method: 'POST',
    body: { username: `Mei ${suffix.slice(-4)}`, mobile: '13812345678', email: `mei.${suffix}@example.com`, password: 'a long demo password', dots: captchaAnswer, key: captcha.id },
  });
  session = { token: answer.access_token, sign: answer.access_sign };
  await call('/v1/useraddress', {
    method: 'POST',
    body: { country_code: 'CN', province_id: 'CN-GD', city_id: 'CN-GD-440100', detail: '88 Tianhe Road, Building 3, Room 1201', postal_code: '510000', contact_name: 'Li Lei', contact_phone: '13812345678', is_default: true },
  });
  await call('/v1/useraddress', {
    method: 'POST',
    body: { country_code: 'US', province_id: 'US-CA', city: 'San Francisco', detail: '1 Market Street, Suite 300', postal_code: '94105', contact_name: 'Jane Doe', contact_phone: '+1 415 555 0132' },
  });
  const listing = await call('/v1/good/list?page=1&page_size=12');
  const products = (listing.records ?? listing.list ?? listing).slice(0, 6);
  const skus = [];
  for (const item of products) {
    const product = await call(`/v1/good/${item.id}`);
    const sku = product.good_sku.find((candidate) => candidate.stock > 5);
    if (sku) skus.push({ productId: product.id, skuId: sku.id });
  }
  const place = (lines, key) =>
    call('/v2/order', { method: 'POST', body: { items: lines.map(({ skuId }, index) => ({ sku_id: skuId, quantity: index + 1 })) }, headers: { 'idempotency-key': key } });
  const shipped = await place(skus.slice(0, 2), `shots-a-${suffix}`);
  const paidOnly = await place(skus.slice(2, 3), `shots-b-${suffix}`);
  const unpaid = await place(skus.slice(3, 4), `shots-c-${suffix}`);
  const cancelled = await place(skus.slice(4, 5), `shots-d-${suffix}`);
  await call(`/v1/order/cancel/${cancelled.id}`, { method: 'PUT' });
  await call('/v1/cart/items', { method: 'POST', body: { sku_id: skus[0].skuId, quantity: 2 } });
  await call('/v1/cart/items', { method: 'POST', body: { sku_id: skus[1].skuId, quantity: 1 } });
  return { token: answer.access_token, skus, shipped, paidOnly, unpaid };
}

/** Pays an order through the storefront and the sandbox page, as a buyer would. */
async function payInBrowser(page, orderId) {
  await page.goto(`${base}/en/order/pay?order_id=${orderId}`, { waitUntil: 'networkidle' });
  await page.getByTestId('pay-button').click();
  await page.waitForURL(/sandbox-gateway/);
  await page.locator('button.pay').click();
  await page.waitForURL(/result\/success/);
  await page.locator('[data-outcome="success"]').waitFor({ timeout: 20_000 });
}

function shop(...args) {
  execFileSync('npm', ['run', '--silent', 'shop', '--', ...args], { stdio: 'inherit', env: { ...process.env, LOG_LEVEL: 'silent' } });
}

const buyer = await prepareBuyer();
const locales = ['en', 'zh-cn'];
const modes = ['light', 'dark'];
const widths = [
  { name: 'desktop', width: 1280, height: 860 },
  { name: 'phone', width: 390, height: 844 },
];

await mkdir(outDir, { recursive: true });
const browser = await launchChromium();
const problems = [];

try {
  {
    const context = await browser.newContext();
    await context.addCookies([{ name: 'access_token', value: buyer.token, url: base }]);
    const page = await context.newPage();
    await payInBrowser(page, buyer.shipped.id);
    await payInBrowser(page, buyer.paidOnly.id);
    shop('orders:ship', String(buyer.shipped.id), '--carrier', 'shunfeng', '--tracking', 'SF1029384756');
    shop('orders:track', String(buyer.shipped.id), '--event', 'Arrived at the Guangzhou sorting centre');
    await context.close();
  }
  for (const viewport of widths) {
    for (const mode of modes) {
      const context = await browser.newContext({
        viewport: { width: viewport.width, height: viewport.height },
        deviceScaleFactor: 1,
        isMobile: viewport.width < 600,
        hasTouch: viewport.width < 600,
      });
      await context.addCookies([
        { name: 'color_mode', value: mode, url: base },
        { name: 'access_token', value: buyer.token, url: base },
        { name: 'currency', value: 'USD', url: base },
      ]);
      const page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console error on ${page.url()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      for (const locale of locales) {
        const shoot = async (name, options = {}) => {
          const file = `${outDir}/${name}-${locale}-${mode}-${viewport.name}.png`;
          if (only && !file.includes(only)) return;
          await page.waitForTimeout(300);
          await page.screenshot({ path: file, fullPage: options.fullPage ?? true });
        };
        const visit = (path) => page.goto(`${base}/${locale}${path}`, { waitUntil: 'networkidle' });

        await visit(`/product/${buyer.skus[0].productId}?sku=${buyer.skus[0].skuId}`);
        await page.locator('.purchase').scrollIntoViewIfNeeded();
        await shoot('product', { fullPage: false });
        await visit('/cart');
        await shoot('cart');
        await visit('/my/address');
        await shoot('address');
        await page.getByTestId('address-add').click();
        await page.getByTestId('address-save').click();
        await shoot('address-dialog-errors', { fullPage: false });
        await page.getByTestId('address-country').selectOption('CN');
        await page.getByTestId('address-province').selectOption('CN-GD');
        await shoot('address-dialog', { fullPage: false });
        await page.keyboard.press('Escape');
        await visit(`/order/confirm_order?sku_id=${buyer.skus[0].skuId}&quantity=2`);
        await shoot('confirm');
        await visit(`/order/pay?order_id=${buyer.unpaid.id}`);
        await shoot('pay');
        await visit(`/result/success?order_id=${buyer.paidOnly.id}`);
        await page.locator('[data-outcome="success"]').waitFor();
        await shoot('result-success');
        await visit(`/result/fail?order_id=${buyer.unpaid.id}`);
        await shoot('result-fail');
        await visit('/my/order');
        await shoot('orders');
        await visit(`/my/order/${buyer.shipped.id}`);
        await shoot('order-detail');
        await visit(`/my/order/${buyer.unpaid.id}`);
        await page.getByTestId('order-cancel').first().click();
        await shoot('order-cancel-prompt', { fullPage: false });
        await page.keyboard.press('Escape');
        if (viewport.name === 'desktop' && mode === 'light') {
          await visit(`/order/pay?order_id=${buyer.unpaid.id}`);
          await page.getByTestId('pay-button').click();
          await page.waitForURL(/sandbox-gateway/);
          await page.waitForLoadState('networkidle');
          const file = `${outDir}/sandbox-${locale}.png`;
          if (!only || file.includes(only)) await page.screenshot({ path: file, fullPage: true });
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
console.log(`screenshots in ${outDir}`);
