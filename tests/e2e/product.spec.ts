import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { untilHydrated, useBrowserSuite } from '../support/browser';

interface Value {
  id: number;
  name: string;
}
interface Sku {
  id: number;
  value_ids: number[];
  price: string;
  stock: number;
}
interface Product {
  id: number;
  property: { name: string; values: Value[] }[];
  good_sku: Sku[];
}

const suite = useBrowserSuite({ viewport: { width: 1280, height: 900 } });
/** A product with two properties, a sold-out SKU and, where the seed has one, SKUs at different prices. */
let product: Product;
let soldOut: Sku;

beforeAll(async () => {
  const server = suite.server;
  const list = (await server.request('/v1/good/list?page_size=50', { headers: { lang: 'en' } })).body.data.records;
  const candidates: Product[] = [];
  for (const card of list) {
    const candidate: Product = (await server.request(`/v1/good/${card.id}`, { headers: { lang: 'en' } })).body.data;
    if (candidate.property.length === 2 && candidate.good_sku.some((sku) => sku.stock === 0))
      candidates.push(candidate);
  }
  const chosen =
    candidates.find((candidate) => new Set(candidate.good_sku.map((sku) => sku.price)).size > 1) ?? candidates[0];
  expect(chosen, 'the seed has a two-property product with a sold-out SKU').toBeDefined();
  product = chosen!;
  soldOut = product.good_sku.find((sku) => sku.stock === 0)!;
});

async function open(path: string, options: { javaScriptEnabled?: boolean } = {}): Promise<Page> {
  const page = await suite.open(options);
  await page.goto(suite.server.url + path, { waitUntil: 'networkidle' });
  if (options.javaScriptEnabled !== false) {
    await untilHydrated(page.locator('.purchase'));
  }
  return page;
}

const valueName = (sku: Sku, index: number) =>
  product.property[index]!.values.find((value) => sku.value_ids.includes(value.id))!.name;
const names = (sku: Sku) => product.property.map((_, index) => valueName(sku, index)).join(' / ');
const skuWith = (first: number, second: number) =>
  product.good_sku.find((sku) => sku.value_ids.includes(first) && sku.value_ids.includes(second));

describe('choosing a SKU', () => {
  it('updates price, stock, Selected and the address in place', async () => {
    const page = await open(`/en/product/${product.id}`);
    const initial = product.good_sku.find((sku) => sku.stock > 0)!;
    await expect.poll(() => page.locator('.purchase__selected').innerText()).toBe(`Selected ${names(initial)}`);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));

    // Another in-stock SKU that shares the first property's value, preferably at another price.
    const first = initial.value_ids[0]!;
    const options = product.good_sku.filter(
      (sku) => sku.id !== initial.id && sku.stock > 0 && sku.value_ids.includes(first),
    );
    const target = options.find((sku) => sku.price !== initial.price) ?? options[0]!;
    await page.getByRole('radio', { name: valueName(target, 1), exact: true }).click();

    await expect.poll(() => page.locator('.purchase__selected').innerText()).toBe(`Selected ${names(target)}`);
    expect(await page.locator('.purchase__price').innerText()).toContain(target.price);
    expect(await page.locator('.stock').innerText()).toContain('In Stock');
    expect(
      await page.getByRole('radio', { name: valueName(target, 1), exact: true }).getAttribute('aria-checked'),
    ).toBe('true');
    expect(page.url()).toMatch(new RegExp(`\\?sku=${target.id}$`));
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);

    // Arrow keys move within a group, radio-style.
    await page.getByRole('radio', { name: valueName(target, 1), exact: true }).focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.locator('.purchase__selected').innerText()).not.toBe(`Selected ${names(target)}`);
  });

  it('disables a value that leads only to a sold-out combination', async () => {
    const first = soldOut.value_ids[0]!;
    const second = soldOut.value_ids[1]!;
    // Open on an in-stock SKU with the sold-out SKU's first value: its second value is then disabled.
    const start = product.good_sku.find(
      (sku) => sku.stock > 0 && sku.value_ids.includes(first) && !sku.value_ids.includes(second),
    )!;
    const page = await open(`/en/product/${product.id}?sku=${start.id}`);
    const blocked = page.getByRole('radio', { name: `${valueName(soldOut, 1)} (out of stock)` });
    expect(await blocked.getAttribute('aria-disabled')).toBe('true');
    expect(await blocked.getAttribute('href')).toBeNull();
    await blocked.click({ force: true });
    expect(await page.locator('.purchase__selected').innerText()).toBe(`Selected ${names(start)}`);
    expect(skuWith(first, second)?.stock).toBe(0);
  });

  it('shows a sold-out SKU as out of stock with quantity and Buy Now disabled', async () => {
    const page = await open(`/en/product/${product.id}?sku=${soldOut.id}`);
    expect(await page.locator('.stock').innerText()).toContain('Out of stock');
    expect(await page.locator('#quantity').isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Buy Now' }).isDisabled()).toBe(true);
  });
});

describe('quantity and Buy Now', () => {
  it('bounds the quantity by the stock and carries it in the Buy Now link', async () => {
    const sku = product.good_sku.find((candidate) => candidate.stock > 1)!;
    const page = await open(`/en/product/${product.id}?sku=${sku.id}`);
    const quantity = page.locator('#quantity');
    const buy = page.getByRole('link', { name: 'Buy Now' });
    const decrease = page.getByRole('button', { name: 'Decrease quantity' });
    const increase = page.getByRole('button', { name: 'Increase quantity' });

    expect(await decrease.isDisabled()).toBe(true);
    await increase.click();
    expect(await quantity.inputValue()).toBe('2');
    expect(await buy.getAttribute('href')).toBe(`/en/order/confirm_order?sku_id=${sku.id}&quantity=2`);

    await quantity.fill('99999');
    expect(await quantity.inputValue()).toBe(String(sku.stock));
    expect(await increase.isDisabled()).toBe(true);
    expect(await buy.getAttribute('href')).toBe(`/en/order/confirm_order?sku_id=${sku.id}&quantity=${sku.stock}`);

    await quantity.fill('0');
    expect(await quantity.inputValue()).toBe('1');
    await quantity.fill('');
    await quantity.blur();
    expect(await quantity.inputValue()).toBe('1');
    expect(await buy.getAttribute('href')).toBe(`/en/order/confirm_order?sku_id=${sku.id}&quantity=1`);
  });
});

describe('image viewer', () => {
  const scale = (page: Page) =>
    page
      .locator('dialog.viewer img')
      .evaluate((image) => Number(/scale\(([\d.]+)\)/.exec((image as HTMLElement).style.transform)?.[1]));

  it('opens full screen, zooms by button, wheel and keys, pages, traps focus and closes on Escape', async () => {
    const page = await open(`/en/product/${product.id}`);
    await page.locator('.gallery__main').click();
    const viewer = page.locator('dialog.viewer');
    await viewer.waitFor();
    expect(await viewer.evaluate((element) => getComputedStyle(element).zIndex)).toBe('2015');
    expect(await scale(page)).toBe(1);

    await page.getByRole('button', { name: 'Zoom in' }).click();
    expect(await scale(page)).toBe(1.1);
    await page.keyboard.press('+');
    expect(await scale(page)).toBeCloseTo(1.21, 2);
    await page.keyboard.press('-');
    expect(await scale(page)).toBeCloseTo(1.1, 2);
    await page.mouse.move(640, 400);
    await page.mouse.wheel(0, -120);
    await expect.poll(() => scale(page)).toBeGreaterThan(1.1);
    await page.keyboard.press('0');
    expect(await scale(page)).toBe(1);

    // Drag pans the image.
    await page.mouse.move(640, 400);
    await page.mouse.down();
    await page.mouse.move(700, 430, { steps: 4 });
    await page.mouse.up();
    expect(
      await page.locator('dialog.viewer img').evaluate((image) => (image as HTMLElement).style.transform),
    ).toContain('translate(60px, 30px)');

    const src = await page.locator('dialog.viewer img').getAttribute('src');
    await page.keyboard.press('ArrowRight');
    const shown = (await page.locator('dialog.viewer img').getAttribute('src'))!;
    expect(shown).not.toBe(src);

    for (let press = 0; press < 12; press += 1) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('dialog.viewer')))).toBe(true);
    }

    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.classList.contains('gallery__main'))).toBe(true);
    // The page shows the image the viewer was left on.
    expect((await page.locator('.gallery__main img').getAttribute('src'))!.split('?')[0]).toBe(shown.split('?')[0]);
  });
});

describe('without JavaScript', () => {
  it('chooses a SKU through plain links rendered by the server', async () => {
    const page = await open(`/en/product/${product.id}`, { javaScriptEnabled: false });
    const initial = product.good_sku.find((sku) => sku.stock > 0)!;
    const target = product.good_sku.find(
      (sku) => sku.id !== initial.id && sku.stock > 0 && sku.value_ids.includes(initial.value_ids[0]!),
    )!;
    await page.getByRole('radio', { name: valueName(target, 1), exact: true }).click();
    await page.waitForURL(new RegExp(`\\?sku=${target.id}$`));
    expect(await page.locator('.purchase__selected').innerText()).toBe(`Selected ${names(target)}`);
    expect(await page.locator('.purchase__price').innerText()).toContain(target.price);
    expect(await page.getByRole('link', { name: 'Buy Now' }).getAttribute('href')).toBe(
      `/en/order/confirm_order?sku_id=${target.id}&quantity=1`,
    );
  });
});
