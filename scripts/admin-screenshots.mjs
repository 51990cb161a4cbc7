#!/usr/bin/env node
/**
 * Screenshots of the operator console (/admin) for a visual check: every screen in both
 * languages and colour modes, at desktop (1440x900) and tablet (820x1180) widths.
 *
 *   SETUP_LINK=<the link the server logs at first start> node scripts/admin-screenshots.mjs [baseUrl] [outDir]
 *   (defaults: http://127.0.0.1:3200 and /tmp/shots-admin; files are <screen>-<locale>-<mode>-<width>.png;
 *   SHOTS_ONLY=<substring> writes only the files whose name contains it.)
 *
 * The script creates the Owner through the setup link (so start the server on an empty staff
 * table and pass the link it logs), enrols two-step sign-in with a code computed from the
 * secret the page shows, then walks the screens. The order and customer pages show the first
 * order and customer of the lists, so a server with orders gives fuller pictures.
 */
import { mkdir } from 'node:fs/promises';
import { Secret, TOTP } from 'otpauth';
import { launchChromium } from './lib/chromium.mjs';

const base = process.argv[2] ?? process.env.BASE_URL ?? 'http://127.0.0.1:3200';
const outDir = process.argv[3] ?? '/tmp/shots-admin';
const only = process.env.SHOTS_ONLY ?? '';
const setupLink = process.env.SETUP_LINK;
if (!setupLink) throw new Error('SETUP_LINK is required: the "console setup link" the server logs at first start');

const locales = ['en', 'zh-cn'];
const modes = ['light', 'dark'];
const viewports = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'tablet', width: 820, height: 1180 },
];
const OWNER = { email: 'owner@shop.example', name: 'Olivia Owner', password: 'Console-owner-2026' };

await mkdir(outDir, { recursive: true });
const browser = await launchChromium();
const context = await browser.newContext({ viewport: viewports[0], locale: 'en-US' });
const page = await context.newPage();
const problems = [];
page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
page.on('console', (message) => {
  if (message.type() === 'error') problems.push(`console: ${message.text()}`);
});

async function shoot(name) {
  const file = `${outDir}/${name}.png`;
  if (only && !file.includes(only)) return;
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: file, fullPage: true });
  console.log(file);
}

/** A write through the console's own API client conventions (CSRF cookie echoed). */
async function consoleCall(path, method, body) {
  return page.evaluate(
    async ({ path, method, body }) => {
      const csrf = document.cookie.match(/(?:^|; )csrf_token=([^;]+)/)?.[1] ?? '';
      const response = await fetch(`/v1/admin${path}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-csrf-token': decodeURIComponent(csrf) },
        body: JSON.stringify(body),
      });
      return response.json();
    },
    { path, method, body },
  );
}

// ---- The Owner: setup link, then two-step enrolment (both screens are pictured on the way).

await page.goto(setupLink);
await page.locator('#setup-name').waitFor();
await shoot('setup-en-light-desktop');
await page.fill('#setup-email', OWNER.email);
await page.fill('#setup-name', OWNER.name);
await page.fill('#setup-password', OWNER.password);
await page.selectOption('#setup-locale', 'en');
await page.click('button[type="submit"]');
await page.waitForURL(/\/admin\/two-step$/);
const secretField = page.locator('#two-step-secret');
await secretField.waitFor();
await shoot('two-step-enrol-en-light-desktop');
const secret = await secretField.inputValue();
const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
await page.fill('#two-step-code', totp.generate());
await page.click('.two-step button[type="submit"]');
await page.locator('.recovery-codes').waitFor();
await shoot('two-step-codes-en-light-desktop');
await page.getByRole('button', { name: 'I have saved them' }).click();
await page.waitForURL(/\/admin$/);

// ---- Every signed-in screen, in each language, mode and width.

async function firstLink(listPath, selector) {
  await page.goto(base + listPath);
  await page.locator('.console-main h1').waitFor();
  return page
    .locator(selector)
    .first()
    .getAttribute('href', { timeout: 2_000 })
    .catch(() => null);
}

const orderPath = await firstLink('/admin/orders', '.data-table tbody a.table-link');
const customerPath = await firstLink('/admin/customers', '.data-table tbody a.table-link');
const screens = [
  ['home', '/admin'],
  ['orders', '/admin/orders'],
  ['orders-filtered', '/admin/orders?status=10&sort=total&dir=desc'],
  ...(orderPath ? [['order-detail', orderPath]] : []),
  ['customers', '/admin/customers'],
  ...(customerPath ? [['customer-detail', customerPath]] : []),
  ['products', '/admin/products'],
  ['product-editor', '/admin/products/1'],
  ['product-new', '/admin/products/new'],
  ['products-csv', '/admin/products/csv'],
  ['groups', '/admin/groups'],
  ['inventory', '/admin/inventory'],
  ['shipping', '/admin/shipping'],
  ['coupons', '/admin/coupons'],
  ['settings', '/admin/settings'],
  ['currencies', '/admin/settings/currencies'],
  ['content', '/admin/content'],
  ['content-editor', '/admin/content/faq'],
  ['staff', '/admin/staff'],
  ['roles', '/admin/roles'],
  ['audit', '/admin/audit'],
  ['profile', '/admin/profile'],
  ['not-found', '/admin/nothing-here'],
];

for (const locale of locales) {
  await consoleCall('/me', 'PUT', { name: OWNER.name, locale });
  for (const mode of modes) {
    await context.addCookies([{ name: 'color_mode', value: mode, url: base }]);
    for (const viewport of viewports) {
      await page.setViewportSize(viewport);
      for (const [name, path] of screens) {
        await page.goto(base + path);
        await page.locator('.console-main h1, .console-main .empty-state').first().waitFor();
        await shoot(`${name}-${locale}-${mode}-${viewport.name}`);
      }
      // The tablet rail opened, and a confirmation dialog.
      if (viewport.name === 'tablet') {
        await page.goto(`${base}/admin/orders`);
        await page.locator('.console-sidebar__toggle').click();
        await shoot(`menu-open-${locale}-${mode}-tablet`);
      }
      if (customerPath) {
        await page.goto(base + customerPath);
        const erase = page.locator('.page-head__actions .button--danger');
        if (await erase.count()) {
          await erase.click();
          await shoot(`erase-dialog-${locale}-${mode}-${viewport.name}`);
        }
      }
    }
  }
}

// ---- Signed out: the sign-in page and a used link, in each language and mode.

const visitor = await browser.newContext({ viewport: viewports[0] });
const visitorPage = await visitor.newPage();
for (const locale of locales) {
  for (const mode of modes) {
    await visitor.addCookies([
      { name: 'lang', value: locale, url: base },
      { name: 'color_mode', value: mode, url: base },
    ]);
    for (const viewport of viewports) {
      await visitorPage.setViewportSize(viewport);
      for (const [name, path] of [
        ['sign-in', '/admin/sign-in'],
        ['setup-used', setupLink.replace(base, '')],
        ['invitation-invalid', '/admin/invitation#not-a-real-token-at-all-0000'],
      ]) {
        const file = `${outDir}/${name}-${locale}-${mode}-${viewport.name}.png`;
        if (only && !file.includes(only)) continue;
        await visitorPage.goto(base + path);
        await visitorPage.locator('.console-auth h1').waitFor();
        await visitorPage.waitForLoadState('networkidle');
        await visitorPage.screenshot({ path: file, fullPage: true });
        console.log(file);
      }
    }
  }
}

await browser.close();
if (problems.length) console.log(`Problems seen in the console:\n${[...new Set(problems)].join('\n')}`);
