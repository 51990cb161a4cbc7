import { describe, expect, it } from 'vitest';
import { useBrowserSuite } from '../support/browser';
import { prepareSku } from '../support/buyers';

const suite = useBrowserSuite();
const { open } = suite;

async function setCookie(name: string, value: string) {
  await suite.context.addCookies([{ name, value, url: suite.server.url }]);
}

function backgroundOf(page: Awaited<ReturnType<typeof open>>) {
  return page.evaluate(() => getComputedStyle(document.body).backgroundColor);
}

function isDark(rgb: string) {
  const [r, g, b] = rgb.match(/\d+/g)!.map(Number);
  return (r! + g! + b!) / 3 < 80;
}

describe('locale', () => {
  it('sends a first visit to Chinese and switches to English on the same page', async () => {
    const page = await open();
    await page.goto(`${suite.server.url}/faq`);
    expect(new URL(page.url()).pathname).toBe('/zh-cn/faq');
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN');
    await page.locator('header .lang-switch a', { hasText: 'English' }).first().click();
    await page.waitForURL(/\/en\/faq$/);
    await expect.poll(() => page.getAttribute('html', 'lang')).toBe('en');
    await expect.poll(() => page.locator('header .main-nav--bar').innerText()).toContain('Contact Us');
    await page.goto(suite.server.url);
    expect(new URL(page.url()).pathname).toMatch(/^\/en\/?$/);
  });
});

describe('navigation', () => {
  it('highlights exactly the entry of the current path', async () => {
    const page = await open();
    await page.goto(`${suite.server.url}/en/faq`);
    const current = page.locator('header .main-nav--bar [aria-current="page"]');
    await expect.poll(() => current.count()).toBe(1);
    expect(await current.innerText()).toBe('FAQ');
    await page.goto(`${suite.server.url}/en/`);
    expect(await page.locator('header .main-nav--bar [aria-current="page"]').innerText()).toBe('Shop');
  });

  it('scrolls to the top after navigating to another page', async () => {
    const page = await open({ viewport: { width: 1280, height: 600 } });
    await page.goto(`${suite.server.url}/en/faq`);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
    await page.locator('footer a[href="/en/our-story"]').first().click();
    await page.waitForURL(/our-story$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  it('shows the loading bar during a slow navigation', async () => {
    const page = await open();
    await page.goto(`${suite.server.url}/en/`);
    await page.route('**/*.data*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 900));
      await route.continue();
    });
    await page.locator('header nav a[href="/en/faq"]').first().click();
    await expect.poll(() => page.getAttribute('.loading-bar', 'data-phase')).toBe('loading');
    await page.waitForURL(/\/en\/faq$/);
    await expect.poll(() => page.getAttribute('.loading-bar', 'data-phase'), { timeout: 5_000 }).toBe('idle');
  });
});

describe('colour mode', () => {
  it('switches to dark at once and keeps it across a reload', async () => {
    const page = await open({ colorScheme: 'light' });
    await page.goto(`${suite.server.url}/en/`);
    expect(isDark(await backgroundOf(page))).toBe(false);
    await page.locator('header button[name="colorMode"][value="dark"]').first().click();
    expect(await page.getAttribute('html', 'data-color-mode')).toBe('dark');
    await expect.poll(async () => isDark(await backgroundOf(page))).toBe(true);
    const cookies = await suite.context.cookies();
    expect(cookies.find((cookie) => cookie.name === 'color_mode')?.value).toBe('dark');
    await page.reload();
    expect(isDark(await backgroundOf(page))).toBe(true);
  });

  it('paints the chosen mode without any script, so there is no flash', async () => {
    const page = await open({ javaScriptEnabled: false, colorScheme: 'light' });
    await setCookie('color_mode', 'dark');
    await page.goto(`${suite.server.url}/zh-cn/`);
    expect(isDark(await backgroundOf(page))).toBe(true);
  });

  it('follows the system preference in system mode', async () => {
    const dark = await open({ colorScheme: 'dark' });
    await dark.goto(`${suite.server.url}/en/`);
    expect(isDark(await backgroundOf(dark))).toBe(true);
    await suite.context.close();
    const light = await open({ colorScheme: 'light' });
    await light.goto(`${suite.server.url}/en/`);
    expect(isDark(await backgroundOf(light))).toBe(false);
  });

  it('works without JavaScript through the preferences form', async () => {
    const page = await open({ javaScriptEnabled: false, colorScheme: 'light' });
    await page.goto(`${suite.server.url}/en/faq`);
    await page.locator('header button[name="colorMode"][value="dark"]').first().click();
    await page.waitForURL(/\/en\/faq$/);
    expect(await page.getAttribute('html', 'data-color-mode')).toBe('dark');
  });
});

describe('floating widget and layout', () => {
  it('sits 80 px from the right and the bottom and takes the visitor back to the top', async () => {
    const page = await open({ viewport: { width: 1280, height: 700 } });
    await page.goto(`${suite.server.url}/en/faq`);
    const widget = page.locator('.floating-widget');
    const box = (await widget.boundingBox())!;
    expect(Math.round(1280 - (box.x + box.width))).toBe(80);
    expect(Math.round(700 - (box.y + box.height))).toBe(80);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const backToTop = page.locator('.floating-widget__button').first();
    await expect.poll(() => backToTop.getAttribute('data-visible')).toBe('true');
    await backToTop.click();
    await expect.poll(() => page.evaluate(() => window.scrollY), { timeout: 5_000 }).toBe(0);
  });

  it('fits a 360 px phone without sideways scrolling and opens the menu drawer', async () => {
    const page = await open({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    for (const path of ['/zh-cn/', '/en/faq', '/en/contact-us', '/zh-cn/videos', '/en/our-story']) {
      await page.goto(suite.server.url + path);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    }
    await page.locator('.menu-button').click();
    const drawer = page.locator('dialog.drawer');
    await expect.poll(() => drawer.isVisible()).toBe(true);
    expect(await drawer.innerText()).toContain('FAQ');
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.isVisible()).toBe(false);
  });
});

describe('error page', () => {
  it('shows Page Not Found inside the shell for an unknown path', async () => {
    const page = await open();
    const response = await page.goto(`${suite.server.url}/en/definitely/not/here`);
    expect(response?.status()).toBe(404);
    expect(await page.locator('h1').innerText()).toBe('Page Not Found');
    expect(await page.locator('header nav').count()).toBeGreaterThan(0);
    suite.forgiveHttpErrors(404); // the browser logs the 404 of the document itself
    // The error page is a lazy chunk: hydration waits for it without a mismatch (a console error),
    // and the page then navigates in the browser.
    await page.waitForLoadState('networkidle');
    await page.locator('.error-page a', { hasText: 'Back to the shop' }).click();
    await page.waitForURL(/\/en\/?$/);
    await expect.poll(() => page.locator('.error-page').count()).toBe(0);
  });

  it('shows the error page when the Back button leads in the page to a product that does not exist', async () => {
    const page = await open();
    await page.goto(`${suite.server.url}/en/faq`);
    await page.waitForLoadState('networkidle');
    const errorChunks: string[] = [];
    page.on('request', (request) => {
      if (/\/assets\/route-error-page-[\w-]{8}\.js$/.test(request.url())) errorChunks.push(request.url());
    });
    // The Back button to an address that no longer exists: React Router handles the popstate in
    // the page, its loader gets a 404, and the error page arrives as its own chunk.
    await page.evaluate(() => {
      history.pushState(null, '', '/en/product/999999999');
      history.pushState(null, '', '/en/faq');
    });
    await page.goBack();
    await expect.poll(() => page.locator('h1').innerText()).toBe('Page Not Found');
    expect(errorChunks).toHaveLength(1);
    suite.forgiveHttpErrors(404);
  });
});

describe('message packs', () => {
  /** The message-pack chunks the page fetched, as `zh-cn-storefront` etc. */
  function packRequests(page: Awaited<ReturnType<typeof open>>) {
    const packs: string[] = [];
    page.on('request', (request) => {
      const match = /\/assets\/messages-([a-z-]+?)-[\w-]{8}\.js$/.exec(new URL(request.url()).pathname);
      if (match) packs.push(match[1]!);
    });
    return packs;
  }

  it('loads one language and only the packs a page needs, and the rest when navigating or opening the login modal', async () => {
    const page = await open();
    const packs = packRequests(page);
    const product = (await (await fetch(`${suite.server.url}/v1/good/list?page_size=1`)).json()).data.records[0].id;
    await page.goto(`${suite.server.url}/zh-cn/product/${product}`);
    await expect.poll(() => page.locator('html').getAttribute('data-message-packs')).toBe('storefront');
    await expect
      .poll(() => page.evaluate(() => document.querySelector('.product-page')?.textContent ?? ''))
      .toContain('首页');
    await page.waitForLoadState('networkidle');
    expect(packs).toEqual(['zh-cn-storefront']);

    // A client-side navigation to the home page brings the browse pack with its data.
    await page.locator('.product-page__crumbs a', { hasText: '首页' }).click();
    await page.waitForURL(/\/zh-cn\/?$/);
    await expect.poll(() => page.locator('.eyebrow').first().textContent()).toBe('工作室原创设计 · 全球直邮');
    expect(packs).toEqual(['zh-cn-storefront', 'zh-cn-browse']);

    // The login modal arrives with the account pack.
    await page.locator('header .account-button').click();
    await expect.poll(() => page.getByRole('dialog').first().innerText()).toContain('欢迎回来');
    expect(packs).toEqual(['zh-cn-storefront', 'zh-cn-browse', 'zh-cn-account']);
    await page.keyboard.press('Escape');

    // Changing the language loads a new document with the other language's packs.
    await page.locator('header .lang-switch a', { hasText: 'English' }).first().click();
    await page.waitForURL(/\/en\/?$/);
    await expect
      .poll(() => page.locator('.eyebrow').first().textContent())
      .toBe('Designed in our studio · Shipped worldwide');
    expect(packs.slice(3).sort()).toEqual(['en-browse', 'en-storefront']);
  });

  it('leaves the server-rendered page working when its texts cannot be fetched', async () => {
    const page = await open();
    await page.route('**/assets/messages-*', (route) => route.abort());
    await page.goto(`${suite.server.url}/en/faq`);
    await expect
      .poll(() => suite.problems.some((problem) => problem.includes('page works without scripts')))
      .toBe(true);
    expect(await page.locator('h1').first().innerText()).not.toBe('');
    // Not hydrated: plain links still navigate as documents.
    await page.locator('header .main-nav--bar a', { hasText: 'Contact Us' }).click();
    await page.waitForURL(/\/en\/contact-us$/);
    expect(await page.locator('header .main-nav--bar').innerText()).toContain('Contact Us');
    await expect
      .poll(() => suite.problems.filter((problem) => problem.includes('page works without scripts')).length)
      .toBe(2);
    await suite.context.close();
    suite.problems.length = 0;
  });

  it('shows the login guard with its texts when a visitor presses Buy Now, however slowly the texts arrive', async () => {
    const sku = await prepareSku(suite.server, { stock: 10 });
    const page = await open();
    // The account pack arrives a second after the guard's 401: the guard must still wait for it.
    await page.route('**/assets/messages-en-account-*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.continue();
    });
    await page.goto(`${suite.server.url}/en/product/${sku.productId}?sku=${sku.id}`);
    await page.waitForLoadState('networkidle');
    await page.locator('.purchase__buy').click();
    await page.waitForURL(/\/en\/order\/confirm_order\?/);
    await expect
      .poll(() => page.getByRole('dialog').first().innerText(), { timeout: 15_000 })
      .toContain('Login to browse more content');
    // The guard's 401 is the expected answer; nothing else may be logged.
    expect(suite.problems.filter((problem) => !/status of 401/.test(problem))).toEqual([]);
    suite.problems.length = 0;
  });

  it('shows a visitor their own cart, no login asked, when they follow the cart link, however slowly its texts arrive', async () => {
    const sku = await prepareSku(suite.server, { stock: 10 });
    const page = await open();
    const added = await page.request.post(`${suite.server.url}/v1/cart/items`, {
      data: { sku_id: sku.id, quantity: 2 },
    });
    expect(added.status()).toBe(200);
    await page.route('**/assets/messages-en-account-*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.continue();
    });
    await page.goto(`${suite.server.url}/en/product/${sku.productId}`);
    await page.waitForLoadState('networkidle');
    await page.getByTestId('header-cart').click();
    await page.waitForURL(/\/en\/cart$/);
    await page.getByRole('heading', { name: 'Shopping cart' }).waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('line-quantity').inputValue()).toBe('2');
    expect(await page.getByText('You sign in at checkout, and this cart moves to your account.').count()).toBe(1);
    expect(await page.locator('dialog[open]').count()).toBe(0);
  });
});
