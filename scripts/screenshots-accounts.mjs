#!/usr/bin/env node
/**
 * Screenshots of the account screens for a visual check: the login modal (code, password
 * and register panes, the last with its validation messages), the captcha dialog, the
 * route guard and My account, in both locales and colour modes at desktop and 390 px.
 *
 *   node scripts/screenshots-accounts.mjs [baseUrl] [outDir]
 *   (defaults: http://127.0.0.1:3400 and /tmp/shots-accounts. The server must run with
 *   CAPTCHA_TEST_ANSWER (env CAPTCHA_ANSWER here, default 2468) so the script can register
 *   an account for My account. SHOTS_ONLY=<substring> limits the files.)
 */
import { mkdir } from 'node:fs/promises';
import { launchChromium } from './lib/chromium.mjs';

const base = process.argv[2] ?? process.env.BASE_URL ?? 'http://127.0.0.1:3400';
const outDir = process.argv[3] ?? '/tmp/shots-accounts';
const only = process.env.SHOTS_ONLY ?? '';
const captchaAnswer = process.env.CAPTCHA_ANSWER ?? '2468';

async function post(path, body) {
  const response = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', lang: 'en' },
    body: JSON.stringify(body),
  });
  return { body: await response.json(), cookies: response.headers.getSetCookie() };
}

/** A fresh account with an avatar-less profile; returns its session cookie value. */
async function registerAccount() {
  const captcha = await post('/v1/captcha', { captcha_type: 'digit' });
  const suffix = Date.now().toString(36);
  const answer = await post('/v1/user/registe', {
    username: `Mei ${suffix.slice(-4)}`,
    mobile: '13812345678',
    email: `mei.${suffix}@example.com`,
    password: 'a long demo password',
    sex: 2,
    dots: captchaAnswer,
    key: captcha.body.data.id,
  });
  if (answer.body.code !== 200) throw new Error(`register failed: ${JSON.stringify(answer.body)} (is CAPTCHA_TEST_ANSWER set?)`);
  return answer.body.data.access_token;
}

const token = await registerAccount();
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
        // The guard page answers 401 on purpose; the browser logs that document status.
        if (message.type() === 'error' && !/status of 401/.test(message.text()))
          problems.push(`console error on ${page.url()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      for (const locale of locales) {
        const shoot = async (name, options = {}) => {
          const file = `${outDir}/${name}-${locale}-${mode}-${viewport.name}.png`;
          if (only && !file.includes(only)) return;
          await page.waitForTimeout(250);
          await page.screenshot({ path: file, fullPage: options.fullPage ?? false });
          console.log(file);
        };
        const accountDialog = page.locator('dialog.modal--account[open]');

        await page.goto(`${base}/${locale}/`, { waitUntil: 'networkidle' });
        await page.locator('header .account-button').click();
        await accountDialog.waitFor();
        await shoot('login-code');

        await accountDialog.getByRole('tab').nth(1).click();
        await accountDialog.locator('input[type="email"]:visible').fill('mei@example.com');
        await accountDialog.locator('input[type="password"]:visible').fill('a long demo password');
        await shoot('login-password');

        await accountDialog.locator('form:visible button[type="submit"]').click();
        await page.locator('dialog.modal--captcha[open] img').waitFor();
        await page.locator('dialog.modal--captcha[open] input').fill('24');
        await shoot('captcha');
        await page.keyboard.press('Escape');

        await accountDialog.locator('.account-pane__switch button').click();
        await accountDialog.locator('form button[type="submit"]').click();
        await shoot('register-errors');

        await page.goto(`${base}/${locale}/my/account`, { waitUntil: 'networkidle' });
        await page.locator('dialog.modal--guard[open]').waitFor();
        await shoot('guard');

        await context.addCookies([{ name: 'access_token', value: token, url: base }]);
        await page.goto(`${base}/${locale}/my/account`, { waitUntil: 'networkidle' });
        const overflow = (await page.evaluate(() => document.documentElement.scrollWidth)) - viewport.width;
        if (overflow > 0) problems.push(`account ${locale} ${mode} ${viewport.name}: horizontal overflow of ${overflow}px`);
        await shoot('account', { fullPage: true });
        await context.clearCookies({ name: 'access_token' });
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
}

if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
