#!/usr/bin/env node
/**
 * Screenshots of the storefront for a visual check, each page in both locales and colour modes
 * at desktop and phone widths:
 * - shell: home (with the phone menu and search bar), FAQ, videos, our story, contact, a 404 page;
 * - catalogue: a category (and its price panel in US dollars), search results, a search without results;
 * - product page: the page, its prices in US dollars, a sold-out choice, the image viewer (and zoomed);
 * - accounts: the login modal (code and password panes), the captcha dialog, the register pane's
 *   validation messages, the route guard and My account;
 * - checkout: the purchase box, cart, address book and its dialog, confirm order, pay, the sandbox
 *   payment page, the payment results, My Orders, an order shipped with tracking, the cancel prompt.
 *
 *   node scripts/screenshots.mjs [baseUrl] [outDir]
 *   (defaults: http://127.0.0.1:3200 and /tmp/shots; files are <page>-<locale>-<mode>-<width>.png.
 *   SHOTS_ONLY=<substring> writes only the files whose name contains it, e.g. "order" or "-phone";
 *   SHOTS_FULL=0 takes viewport-only shots; PRODUCT_ID picks the product page's product.)
 *
 * The account and checkout pages register a buyer, so the server must run with CAPTCHA_TEST_ANSWER
 * (CAPTCHA_ANSWER here, default TEST_CAPTCHA of lib/demo-fixtures.mjs) and PAYMENT_PROVIDER=sandbox,
 * and DATABASE_URL here must point at the server's PostgreSQL so the script can ship an order with
 * `npm run shop`.
 */
import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { launchChromium } from './lib/chromium.mjs';
import { TEST_CAPTCHA, chinaAddress, usAddress } from './lib/demo-fixtures.mjs';

const base = process.argv[2] ?? process.env.BASE_URL ?? 'http://127.0.0.1:3200';
const outDir = process.argv[3] ?? '/tmp/shots';
const only = process.env.SHOTS_ONLY ?? '';
const fullPages = process.env.SHOTS_FULL !== '0';
const captchaAnswer = process.env.CAPTCHA_ANSWER ?? TEST_CAPTCHA;

const locales = ['en', 'zh-cn'];
const modes = ['light', 'dark'];
const viewports = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
];
const isPhone = (viewport) => viewport.width < 600;
const text = (locale, en, zh) => (locale === 'en' ? en : zh);

// ---- Data the account and checkout pages need, made once on first use.

let apiSession = {};
async function call(path, { method = 'GET', body, headers = {} } = {}) {
  const response = await fetch(base + path, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), lang: 'en', ...apiSession, ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await response.json();
  if (json.code !== 200) throw new Error(`${method} ${path}: ${JSON.stringify(json)} (is CAPTCHA_TEST_ANSWER set?)`);
  return json.data;
}

function once(make) {
  let made;
  return () => (made ??= make());
}

/** A product with a sold-out SKU shows every state of the product page. */
const productForPage = once(async () => {
  if (process.env.PRODUCT_ID) return call(`/v1/good/${process.env.PRODUCT_ID}`);
  const list = await call('/v1/good/list?page_size=50');
  for (const card of list.records) {
    const product = await call(`/v1/good/${card.id}`);
    if (product.property.length > 1 && product.good_sku.some((sku) => sku.stock === 0)) return product;
  }
  return call(`/v1/good/${list.records[0].id}`);
});

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
  execFileSync('npm', ['run', '--silent', 'shop', '--', ...args], {
    stdio: 'inherit',
    env: { ...process.env, LOG_LEVEL: 'silent' },
  });
}

/**
 * A fresh buyer with two addresses, a cart of two lines and four orders: shipped with tracking,
 * paid, unpaid and cancelled.
 */
const buyer = once(async () => {
  const captcha = await call('/v1/captcha', { method: 'POST', body: { captcha_type: 'digit' } });
  const suffix = Date.now().toString(36);
  const answer = await call('/v1/user/registe', {
    method: 'POST',
    body: {
      username: `Mei ${suffix.slice(-4)}`,
      mobile: '13812345678',
      email: `mei.${suffix}@example.com`,
      password: 'a long demo password',
      sex: 2,
      dots: captchaAnswer,
      key: captcha.id,
    },
  });
  apiSession = { token: answer.access_token, sign: answer.access_sign };
  await call('/v1/useraddress', { method: 'POST', body: { ...chinaAddress, is_default: true } });
  await call('/v1/useraddress', { method: 'POST', body: usAddress });
  const listing = await call('/v1/good/list?page=1&page_size=12');
  const skus = [];
  for (const item of listing.records.slice(0, 6)) {
    const product = await call(`/v1/good/${item.id}`);
    const sku = product.good_sku.find((candidate) => candidate.stock > 5);
    if (sku) skus.push({ productId: product.id, skuId: sku.id });
  }
  const place = (lines, key) =>
    call('/v2/order', {
      method: 'POST',
      body: { items: lines.map(({ skuId }, index) => ({ sku_id: skuId, quantity: index + 1 })) },
      headers: { 'idempotency-key': `${key}-${suffix}` },
    });
  const shipped = await place(skus.slice(0, 2), 'shots-a');
  const paidOnly = await place(skus.slice(2, 3), 'shots-b');
  const unpaid = await place(skus.slice(3, 4), 'shots-c');
  const cancelled = await place(skus.slice(4, 5), 'shots-d');
  await call(`/v1/order/cancel/${cancelled.id}`, { method: 'PUT' });
  await call('/v1/cart/items', { method: 'POST', body: { sku_id: skus[0].skuId, quantity: 2 } });
  await call('/v1/cart/items', { method: 'POST', body: { sku_id: skus[1].skuId, quantity: 1 } });

  const context = await browser.newContext();
  await context.addCookies([{ name: 'access_token', value: answer.access_token, url: base }]);
  const page = await context.newPage();
  await payInBrowser(page, shipped.id);
  await payInBrowser(page, paidOnly.id);
  await context.close();
  shop('orders:ship', String(shipped.id), '--carrier', 'shunfeng', '--tracking', 'SF1029384756');
  shop('orders:track', String(shipped.id), '--event', 'Arrived at the Guangzhou sorting centre');
  return { token: answer.access_token, skus, shipped, paidOnly, unpaid };
});

// ---- The pages. `path` may be a function of the locale (and may wait for data); `before` readies
// the page for its shot; `steps` take the further shots a page has (dialogs, other states), named
// in `also`. `signedIn` pages carry the buyer's session cookie and `currency` sets the display
// currency; other pages are visited without either.

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

const pages = [
  {
    name: 'home',
    also: ['search-bar', 'menu'],
    path: '/',
    async steps({ page, locale, mode, viewport, shoot }) {
      if (!isPhone(viewport)) return;
      if (mode === 'light') {
        await page.locator('.header-search__toggle').click();
        await shoot('search-bar', { fullPage: false });
        await page.keyboard.press('Escape');
      }
      await page.getByRole('button', { name: text(locale, 'Open menu', '打开菜单') }).click();
      // The drawer's code arrives with the first tap; then its 220 ms slide-in.
      await page.locator('dialog.drawer[open]').waitFor();
      await page.waitForFunction(() => document.querySelector('dialog.drawer')?.getAnimations().length === 0);
      await shoot('menu', { fullPage: false });
      await page.keyboard.press('Escape');
    },
  },
  { name: 'faq', path: '/faq' },
  { name: 'videos', path: '/videos' },
  { name: 'story', path: '/our-story' },
  { name: 'contact', path: '/contact-us' },
  { name: '404', path: '/no-such-page', expectStatus: 404 },
  {
    name: 'category',
    also: ['category-usd'],
    path: '/product/cate/1',
    async steps({ mode, shoot, visit }) {
      if (mode !== 'light') return;
      // The price panel open, in US dollars.
      await visit('/product/cate/1?min=10&max=60&cur=USD', { currency: 'USD' });
      await shoot('category-usd', { fullPage: false });
    },
  },
  { name: 'search', path: (locale) => `/search?keyword=${text(locale, 'linen', '%E4%BA%9A%E9%BA%BB')}` },
  { name: 'search-empty', path: '/search?keyword=zzzz' },
  {
    name: 'product',
    also: ['product-usd', 'product-sold-out', 'viewer', 'viewer-zoomed'],
    path: async () => `/product/${(await productForPage()).id}`,
    async steps({ page, mode, viewport, shoot, visit }) {
      const product = await productForPage();
      if (mode === 'light') {
        // A buyer who picked another display currency sees converted, approximate prices.
        await visit(`/product/${product.id}`, { currency: 'USD' });
        await shoot('product-usd', { fullPage: false });
      }
      const soldOut = product.good_sku.find((sku) => sku.stock === 0);
      if (soldOut) {
        await visit(`/product/${product.id}?sku=${soldOut.id}`);
        await shoot('product-sold-out', { fullPage: false });
      }
      if (mode === 'light' || viewport.name === 'desktop') {
        await page.locator('.gallery__main').click();
        await page.locator('dialog.viewer img').waitFor();
        await page.waitForTimeout(400);
        await shoot('viewer', { fullPage: false });
        for (let step = 0; step < 3; step++) await page.keyboard.press('+');
        await page.waitForTimeout(400);
        await shoot('viewer-zoomed', { fullPage: false });
        await page.keyboard.press('Escape');
      }
    },
  },
  {
    name: 'login-code',
    also: ['login-password', 'captcha', 'register-errors'],
    path: '/',
    fullPage: false,
    async before({ page }) {
      await page.locator('header .account-button').click();
      await page.locator('dialog.modal--account[open]').waitFor();
    },
    async steps({ page, locale, shoot }) {
      const dialog = page.locator('dialog.modal--account[open]');
      await dialog.getByRole('tab', { name: text(locale, 'Password', '密码') }).click();
      const panel = dialog.getByRole('tabpanel');
      await panel.getByLabel(text(locale, 'Email', '邮箱'), { exact: true }).fill('mei@example.com');
      await panel.getByLabel(text(locale, 'Password', '密码'), { exact: true }).fill('a long demo password');
      await shoot('login-password', { fullPage: false });

      await panel.getByRole('button', { name: text(locale, 'Log in', '登录'), exact: true }).click();
      await page.locator('dialog.modal--captcha[open] img').waitFor();
      await page.locator('dialog.modal--captcha[open] input').fill('24');
      await shoot('captcha', { fullPage: false });
      await page.keyboard.press('Escape');

      await dialog.getByRole('button', { name: text(locale, 'No account, go register', '没有账号，去注册') }).click();
      await dialog.getByRole('button', { name: text(locale, 'Register', '注册'), exact: true }).click();
      await shoot('register-errors', { fullPage: false });
    },
  },
  {
    name: 'guard',
    path: '/my/account',
    fullPage: false,
    expectStatus: 401,
    async before({ page }) {
      await page.locator('dialog.modal--guard[open]').waitFor();
    },
  },
  { name: 'account', path: '/my/account', signedIn: true },
  {
    name: 'purchase-box',
    path: async () => {
      const [first] = (await buyer()).skus;
      return `/product/${first.productId}?sku=${first.skuId}`;
    },
    signedIn: true,
    currency: 'USD',
    fullPage: false,
    async before({ page }) {
      await page.locator('.purchase').scrollIntoViewIfNeeded();
    },
  },
  { name: 'cart', path: '/cart', signedIn: true, currency: 'USD' },
  {
    name: 'address',
    also: ['address-dialog-errors', 'address-dialog'],
    path: '/my/address',
    signedIn: true,
    currency: 'USD',
    async steps({ page, shoot }) {
      await page.getByTestId('address-add').click();
      await page.getByTestId('address-save').click();
      await shoot('address-dialog-errors', { fullPage: false });
      await page.getByTestId('address-country').selectOption('CN');
      await page.getByTestId('address-province').selectOption('CN-GD');
      await shoot('address-dialog', { fullPage: false });
      await page.keyboard.press('Escape');
    },
  },
  {
    name: 'confirm',
    path: async () => `/order/confirm_order?sku_id=${(await buyer()).skus[0].skuId}&quantity=2`,
    signedIn: true,
    currency: 'USD',
  },
  {
    name: 'pay',
    also: ['sandbox'],
    path: async () => `/order/pay?order_id=${(await buyer()).unpaid.id}`,
    signedIn: true,
    currency: 'USD',
    async steps({ page, mode, viewport, shoot }) {
      if (viewport.name !== 'desktop' || mode !== 'light') return;
      await page.getByTestId('pay-button').click();
      await page.waitForURL(/sandbox-gateway/);
      await page.waitForLoadState('networkidle');
      await shoot('sandbox');
    },
  },
  {
    name: 'result-success',
    path: async () => `/result/success?order_id=${(await buyer()).paidOnly.id}`,
    signedIn: true,
    currency: 'USD',
    async before({ page }) {
      await page.locator('[data-outcome="success"]').waitFor();
    },
  },
  {
    name: 'result-fail',
    path: async () => `/result/fail?order_id=${(await buyer()).unpaid.id}`,
    signedIn: true,
    currency: 'USD',
  },
  { name: 'orders', path: '/my/order', signedIn: true, currency: 'USD' },
  {
    name: 'order-detail',
    path: async () => `/my/order/${(await buyer()).shipped.id}`,
    signedIn: true,
    currency: 'USD',
  },
  {
    name: 'order-cancel-prompt',
    path: async () => `/my/order/${(await buyer()).unpaid.id}`,
    signedIn: true,
    currency: 'USD',
    fullPage: false,
    async before({ page }) {
      await page.getByTestId('order-cancel').first().click();
    },
  },
];

// ---- One loop: viewport × colour mode × locale × page.

await mkdir(outDir, { recursive: true });
const browser = await launchChromium();
const problems = [];
const fileFor = (name, combination) =>
  `${outDir}/${name}-${combination.locale}-${combination.mode}-${combination.viewport.name}.png`;
/** A page is visited when SHOTS_ONLY matches its own shot or one its steps take (`also`). */
const wanted = (target, combination) =>
  !only || [target.name, ...(target.also ?? [])].some((name) => fileFor(name, combination).includes(only));

try {
  for (const viewport of viewports) {
    for (const mode of modes) {
      const context = await browser.newContext({
        viewport: { width: viewport.width, height: viewport.height },
        deviceScaleFactor: 1,
        isMobile: isPhone(viewport),
        hasTouch: isPhone(viewport),
      });
      await context.addCookies([{ name: 'color_mode', value: mode, url: base }]);
      const page = await context.newPage();
      let expectedStatus = 0;
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        // A guard answers 401 and an unknown page 404 on purpose; the browser logs that document status.
        if (expectedStatus && message.text().includes(`status of ${expectedStatus}`)) return;
        problems.push(`console error on ${page.url()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error on ${page.url()}: ${error.message}`));

      for (const locale of locales) {
        for (const target of pages) {
          const combination = { viewport, mode, locale };
          if (!wanted(target, combination)) continue;
          const shoot = async (name, options = {}) => {
            const file = fileFor(name, combination);
            if (only && !file.includes(only)) return;
            const fullPage = fullPages && (options.fullPage ?? true);
            if (fullPage) await loadLazyImages(page);
            await page.waitForTimeout(250);
            await page.screenshot({ path: file, fullPage });
            console.log(file);
          };
          const visit = async (path, options = {}) => {
            await context.clearCookies({ name: 'access_token' });
            await context.clearCookies({ name: 'currency' });
            const cookies = [];
            if (options.signedIn) cookies.push({ name: 'access_token', value: (await buyer()).token, url: base });
            if (options.currency) cookies.push({ name: 'currency', value: options.currency, url: base });
            if (cookies.length) await context.addCookies(cookies);
            await page.goto(`${base}/${locale}${path}`, { waitUntil: 'networkidle' });
            const overflow = (await page.evaluate(() => document.documentElement.scrollWidth)) - viewport.width;
            if (overflow > 0)
              problems.push(`${page.url()} (${mode}, ${viewport.name}): horizontal overflow of ${overflow}px`);
          };
          const steps = { page, context, locale, mode, viewport, shoot, visit };

          expectedStatus = target.expectStatus ?? 0;
          const path = typeof target.path === 'function' ? await target.path(locale) : target.path;
          await visit(path, target);
          await target.before?.(steps);
          await shoot(target.name, { fullPage: target.fullPage ?? true });
          await target.steps?.(steps);
          expectedStatus = 0;
        }
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
}

if (problems.length > 0) {
  console.error(`\nProblems:\n  ${[...new Set(problems)].join('\n  ')}`);
  process.exitCode = 1;
}
