import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowserSuite } from '../support/browser';

const suite = useBrowserSuite();
const { open } = suite;

/** The grid's cards: ids from the links, prices as shown. */
function cardIds(page: Page) {
  return page
    .locator('.product-grid .product-card__link')
    .evaluateAll((links) => links.map((link) => Number(link.getAttribute('href')!.split('/').pop())));
}

/** Card prices as read on screen, without the '≈' mark and its screen-reader words. */
function cardPrices(page: Page) {
  return page.locator('.product-grid .product-card__price').evaluateAll((prices) =>
    prices.map((price) => {
      const copy = price.cloneNode(true) as HTMLElement;
      for (const hidden of copy.querySelectorAll('.sr-only, .price__approx')) hidden.remove();
      return (copy.textContent ?? '').trim();
    }),
  );
}

function amount(text: string) {
  return Number(text.replace(/[^\d.]/g, ''));
}

/** Waits until React has taken over the page (the no-JS pagination steps aside then). */
async function hydrated(page: Page) {
  await page.waitForFunction(() => {
    const pagination = document.querySelector('.pagination');
    return pagination ? pagination.hasAttribute('hidden') : document.querySelector('.currency-picker__apply') === null;
  });
}

describe('home', () => {
  it('shows collections and categories, and a card leads to its product page', async () => {
    const page = await open();
    await page.goto(`${suite.server.url}/en/`);
    await hydrated(page);
    expect(await page.locator('.collection .section-head__title').allInnerTexts()).toEqual(
      expect.arrayContaining(['New Arrivals', 'Best Sellers', 'Gift Ideas']),
    );
    expect(await page.locator('.category-tile').count()).toBeGreaterThanOrEqual(6);
    const card = page.locator('.collection .product-card').first();
    const href = await card.locator('.product-card__link').getAttribute('href');
    expect(href).toMatch(/^\/en\/product\/\d+$/);
    // The whole card is the link: a click on the picture goes there too.
    await card.locator('.product-card__media').click({ force: true });
    await page.waitForURL(new RegExp(`${href}$`));
    expect(new URL(page.url()).pathname).toBe(href);
  });

  it('shows a colour’s own picture while a swatch is pointed at or focused', async () => {
    const page = await open();
    await page.goto(`${suite.server.url}/en/`);
    await hydrated(page);
    const card = page
      .locator('.collection .product-card')
      .filter({ has: page.locator('button.swatch') })
      .first();
    const image = card.locator('.product-card__image');
    const before = await image.getAttribute('src');
    const swatches = card.locator('button.swatch');
    await swatches.nth(1).hover();
    await expect.poll(() => image.getAttribute('src')).not.toBe(before);
    await page.mouse.move(0, 0);
    await expect.poll(() => image.getAttribute('src')).toBe(before);
    await swatches.nth(1).focus();
    await expect.poll(() => image.getAttribute('src')).not.toBe(before);
  });
});

describe('category page', () => {
  it('loads more cards as the end of the list nears, with a spinner, until "No more"', async () => {
    const page = await open({ viewport: { width: 1280, height: 700 } });
    await page.goto(`${suite.server.url}/en/product/cate/1?page_size=4`);
    await hydrated(page);
    const total = (await suite.server.request('/v1/good/list?group_id=1&page_size=1')).body.data.total as number;
    expect(total).toBeGreaterThan(8);
    expect(await page.locator('.product-grid .product-card').count()).toBe(4);
    // Slow the next page down so the loading state can be seen.
    await page.route('**/*.data*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => page.locator('.listing__status .spinner').count()).toBe(1);
    for (let attempt = 0; attempt < 10; attempt++) {
      if ((await page.locator('.product-grid .product-card').count()) >= total) break;
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await page.waitForTimeout(300);
    }
    await expect.poll(() => page.locator('.product-grid .product-card').count(), { timeout: 10_000 }).toBe(total);
    await expect.poll(() => page.locator('.listing__status').innerText()).toBe('No more');
    const ids = await cardIds(page);
    expect(new Set(ids).size).toBe(total);
    expect(ids).toEqual(
      (await suite.server.request(`/v1/good/list?group_id=1&page_size=${total}`)).body.data.records.map(
        (r: { id: number }) => r.id,
      ),
    );
  });

  it('says 没有更多了 at the end of a Chinese list', async () => {
    const page = await open();
    await page.goto(`${suite.server.url}/zh-cn/product/cate/4`);
    await hydrated(page);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => page.locator('.listing__status').innerText()).toBe('没有更多了');
  });

  it('reorders the products when another sort order is picked', async () => {
    const page = await open();
    await page.goto(`${suite.server.url}/en/product/cate/1`);
    await hydrated(page);
    const before = await cardIds(page);
    await page.getByLabel('Sort by').selectOption('price_asc');
    await page.waitForURL(/sort=price_asc/);
    await expect.poll(() => cardIds(page)).not.toEqual(before);
    const prices = (await cardPrices(page)).map(amount);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    await page.getByLabel('Sort by').selectOption('price_desc');
    await page.waitForURL(/sort=price_desc/);
    await expect.poll(async () => (await cardPrices(page)).map(amount)).toEqual([...prices].sort((a, b) => b - a));
  });

  it('filters by a price range typed in the display currency', async () => {
    const page = await open();
    await page.goto(`${suite.server.url}/en/product/cate/1`);
    await hydrated(page);
    await page.locator('.price-filter summary').click();
    await page.getByLabel('Lowest price in CNY').fill('150');
    await page.getByLabel('Highest price in CNY').fill('400');
    await page.locator('.price-filter__apply').click();
    await page.waitForURL(/min=150&max=400/);
    await expect.poll(() => page.locator('.filter-chip').innerText()).toContain('CN¥150.00 – CN¥400.00');
    const prices = (await cardPrices(page)).map(amount);
    expect(prices.length).toBeGreaterThan(0);
    for (const price of prices) expect(price >= 150 && price <= 400).toBe(true);
  });
});

describe('display currency', () => {
  it('switches every price to the currency picked in the header, in place, and keeps it', async () => {
    const page = await open();
    await page.goto(`${suite.server.url}/en/product/cate/4`);
    await hydrated(page);
    const before = await cardPrices(page);
    for (const price of before) expect(price).toMatch(/^CN¥\d+\.\d{2}$/);
    await page.locator('.site-header .currency-picker--header select').selectOption('USD');
    await expect.poll(async () => (await cardPrices(page))[0]).toMatch(/^\$\d+\.\d{2}$/);
    expect(new URL(page.url()).pathname).toBe('/en/product/cate/4');
    expect(await page.locator('.product-card__price').first().textContent()).toContain('≈');
    expect((await suite.context.cookies()).find((cookie) => cookie.name === 'currency')?.value).toBe('USD');
    await page.locator('.site-header .currency-picker--header select').selectOption('JPY');
    await expect.poll(async () => (await cardPrices(page))[0]).toMatch(/^¥\d+$/);
    await page.reload();
    expect((await cardPrices(page))[0]).toMatch(/^¥\d+$/);
    expect(await page.locator('.site-header .currency-picker--header select').inputValue()).toBe('JPY');
  });

  it('is in the phone menu', async () => {
    const page = await open({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
    await page.goto(`${suite.server.url}/zh-cn/product/cate/4`);
    await hydrated(page);
    await page.locator('.menu-button').click();
    await page.locator('dialog.drawer .currency-picker select').selectOption('EUR');
    await expect.poll(async () => (await cardPrices(page))[0]).toMatch(/^\d+\.\d{2}欧元$/);
  });
});

describe('search', () => {
  it('searches from the header box and shows the results', async () => {
    const page = await open();
    await page.goto(`${suite.server.url}/en/product/cate/4`);
    await hydrated(page);
    const box = page.locator('.site-header').getByRole('searchbox', { name: 'Search products' });
    await box.fill('linen');
    await box.press('Enter');
    await page.waitForURL(/\/en\/search\?keyword=linen$/);
    await expect.poll(() => page.locator('h1').innerText()).toBe('Results for “linen”');
    expect(await page.locator('.product-grid .product-card').count()).toBeGreaterThan(1);
  });

  it('opens the search field from the icon on a phone and searches in Chinese', async () => {
    const page = await open({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    await page.goto(`${suite.server.url}/zh-cn/`);
    await hydrated(page);
    const box = page.locator('.site-header').getByRole('searchbox', { name: '搜索商品' });
    expect(await box.isVisible()).toBe(false);
    await page.locator('.header-search__toggle').click();
    await expect.poll(() => box.isVisible()).toBe(true);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('keyword');
    await box.fill('茶');
    await box.press('Enter');
    await page.waitForURL(/\/zh-cn\/search\?keyword=/);
    await expect.poll(() => page.locator('h1').innerText()).toBe('“茶”的搜索结果');
    expect(await page.locator('.product-grid .product-card').count()).toBeGreaterThan(0);
    await expect.poll(() => box.isVisible()).toBe(false);
    for (const path of ['/zh-cn/', '/en/product/cate/1', '/en/search?keyword=tea']) {
      await page.goto(suite.server.url + path);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    }
  });

  it('shows the empty state with suggestions', async () => {
    const page = await open();
    await page.goto(`${suite.server.url}/en/search?keyword=nothing-like-this`);
    expect(await page.locator('.empty-state__title').innerText()).toBe('No matching data');
    await page.locator('.empty-state .chip').first().click();
    await page.waitForURL(/\/en\/product\/cate\/\d+$/);
  });
});

describe('without JavaScript', () => {
  it('pages through a category with plain links', async () => {
    const page = await open({ javaScriptEnabled: false });
    await page.goto(`${suite.server.url}/en/product/cate/1?page_size=4`);
    const first = await cardIds(page);
    expect(first).toHaveLength(4);
    const pagination = page.getByRole('navigation', { name: 'Pages' });
    expect(await pagination.isVisible()).toBe(true);
    await pagination.getByRole('link', { name: 'Next' }).click();
    await page.waitForURL(/page=2/);
    const second = await cardIds(page);
    expect(second).toHaveLength(4);
    expect(second.some((id) => first.includes(id))).toBe(false);
    await pagination.getByRole('link', { name: 'Page 3' }).click();
    await page.waitForURL(/page=3/);
    expect(await page.locator('.listing__status').innerText()).toBe('No more');
    await pagination.getByRole('link', { name: 'Previous' }).click();
    await page.waitForURL(/page=2/);
    expect(await cardIds(page)).toEqual(second);
  });

  it('sorts with the Apply button and switches currency with the preferences form', async () => {
    const page = await open({ javaScriptEnabled: false });
    await page.goto(`${suite.server.url}/en/product/cate/1`);
    await page.getByLabel('Sort by').selectOption('price_desc');
    await page.locator('.listing-toolbar__apply').click();
    await page.waitForURL(/sort=price_desc/);
    const prices = (await cardPrices(page)).map(amount);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    await page.locator('.site-header .currency-picker--header select').selectOption('GBP');
    await page.locator('.site-header .currency-picker--header .currency-picker__apply').click();
    await page.waitForURL(/sort=price_desc/);
    for (const price of await cardPrices(page)) expect(price).toMatch(/^£\d+\.\d{2}$/);
  });

  it('links the phone search icon to the search page', async () => {
    const page = await open({ javaScriptEnabled: false, viewport: { width: 375, height: 740 } });
    await page.goto(`${suite.server.url}/en/`);
    await page.locator('.header-search__toggle').click();
    await page.waitForURL(/\/en\/search$/);
    await page.locator('#search-page-keyword').fill('mug');
    await page.locator('.search-hero button[type="submit"]').click();
    await page.waitForURL(/keyword=mug/);
    expect(await page.locator('.product-grid .product-card').count()).toBeGreaterThan(0);
  });
});
