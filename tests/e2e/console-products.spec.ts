import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useBrowserSuite } from '../support/browser';
import { createSignedInStaff } from '../support/staff';

/**
 * The product editor in Chromium: a product with two options (four SKUs) and three uploaded
 * images, created, published and seen on the storefront in both languages at once; its price
 * changed and the product page shows the new one (the cached page was retired). Needs
 * `npm run build`. SCREENSHOTS_DIR set: the editor and list are photographed there.
 */
const suite = useBrowserSuite({ viewport: { width: 1280, height: 900 } });

const tag = `${process.pid}${Date.now().toString(36)}`.toUpperCase();

async function pngOf(colour: string): Promise<{ name: string; mimeType: string; buffer: Buffer }> {
  const buffer = await sharp({ create: { width: 640, height: 640, channels: 3, background: colour } })
    .png()
    .toBuffer();
  return { name: `${colour.slice(1)}.png`, mimeType: 'image/png', buffer };
}

async function shoot(page: Page, name: string) {
  const folder = process.env.SCREENSHOTS_DIR;
  if (folder) await page.screenshot({ path: `${folder}/${name}.png`, fullPage: true });
}

async function fillOption(page: Page, axis: number, name: [string, string], values: Array<[string, string]>) {
  await page.getByRole('button', { name: 'Add an option' }).click();
  await page.locator(`#option-${axis}-en`).fill(name[0]);
  await page.locator(`#option-${axis}-zh-cn`).fill(name[1]);
  const option = page.locator('.product-option').nth(axis);
  for (const [index, [en, zh]] of values.entries()) {
    if (index > 0) await option.getByRole('button', { name: 'Add a value' }).click();
    await option.getByLabel(`Value ${index + 1} · English`).fill(en);
    await option.getByLabel(`Value ${index + 1} · Chinese`).fill(zh);
  }
}

describe('the product editor', () => {
  it('creates a product with two options, four SKUs and three images, publishes it, and a price change reaches the storefront', async () => {
    const staff = await createSignedInStaff(suite.server, { role: 'catalogue' });
    const page = await suite.open();
    await suite.context.addCookies(
      Object.entries(staff.cookies).map(([name, value]) => ({ name, value, url: suite.server.url })),
    );
    await page.goto(`${suite.server.url}/admin/products/new`);
    await page.locator('#name-en').waitFor();
    await page.locator('#name-en').fill(`Moon jar ${tag}`);
    await page.locator('#name-zh-cn').fill(`月亮罐 ${tag}`);
    await page.locator('#description-en').fill('<p>Thrown <strong>by hand</strong>.</p><script>alert(1)</script>');
    await page.locator('#description-zh-cn').fill('<p>手工拉坯。</p>');
    await fillOption(
      page,
      0,
      ['Colour', '颜色'],
      [
        ['White', '白'],
        ['Blue', '蓝'],
      ],
    );
    await fillOption(
      page,
      1,
      ['Size', '尺寸'],
      [
        ['Small', '小'],
        ['Large', '大'],
      ],
    );
    const rows = page.locator('.sku-matrix tbody tr');
    await expect.poll(() => rows.count()).toBe(4);
    const prices = { 'White / Small': '120', 'White / Large': '150', 'Blue / Small': '125', 'Blue / Large': '155' };
    for (const [index, [label, price]] of Object.entries(prices).entries()) {
      await page.getByLabel(`SKU code · ${label}`).fill(`MJ-${tag}-${index}`);
      await page.getByLabel(`Price (CNY) · ${label}`).fill(price);
      await page.getByLabel(`Initial stock · ${label}`).fill('4');
    }

    await page
      .locator('#product-image-files')
      .setInputFiles(await Promise.all(['#c0392b', '#2e86c1', '#f1c40f'].map(pngOf)));
    const images = page.locator('.image-strip__item');
    await expect.poll(() => images.count()).toBe(3);
    // The third image (yellow) becomes the cover by dragging it to the front.
    await images.nth(2).dragTo(images.nth(0));
    await page.getByLabel('Alt text of image 1 · English').fill('Front');
    await page.getByLabel('Alt text of image 1 · Chinese').fill('正面');
    await shoot(page, 'product-editor-new-en-desktop');

    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.waitForURL(/\/admin\/products\/\d+$/);
    const id = Number(/(\d+)$/.exec(page.url())![1]);
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect
      .poll(() => page.getByRole('status').first().innerText())
      .toBe('Published: the product is on the shop now.');

    const saved = (await staff.request(`/v1/admin/products/${id}`)).body.data;
    expect(saved.status).toBe('published');
    expect(saved.skus.map((sku: { price_minor: number }) => sku.price_minor)).toEqual([12_000, 15_000, 12_500, 15_500]);
    expect(saved.images).toHaveLength(3);
    expect(saved.images[0].alt).toEqual({ en: 'Front', 'zh-cn': '正面' });
    expect(saved.images[0].url).not.toBe(saved.images[1].url);
    expect(saved.description.en).toBe('<p>Thrown <strong>by hand</strong>.</p>');

    // Both languages at once, each from its own cached page.
    const [english, chinese] = await Promise.all([suite.open(), suite.open()]);
    await Promise.all([
      english.goto(`${suite.server.url}/en/product/${id}`),
      chinese.goto(`${suite.server.url}/zh-cn/product/${id}`),
    ]);
    expect(await english.locator('h1').innerText()).toBe(`Moon jar ${tag}`);
    expect(await chinese.locator('h1').innerText()).toBe(`月亮罐 ${tag}`);
    expect(await english.locator('.product-details__text strong').innerText()).toBe('by hand');
    expect(await english.locator('.product-details__text script').count()).toBe(0);
    expect(await chinese.locator('.product-details__text').innerText()).toBe('手工拉坯。');
    expect(await english.locator('.purchase__price').innerText()).toContain('120.00');
    await english.reload();
    expect(await english.locator('.purchase__price').innerText()).toContain('120.00');

    await page.getByLabel('Price (CNY) · White / Small').fill('99');
    await shoot(page, 'product-editor-edit-en-desktop');
    await page.getByRole('button', { name: 'Save product' }).click();
    await expect
      .poll(() => page.getByRole('status').first().innerText())
      .toBe('Product saved. Its pages on the shop show the change now.');
    await english.reload();
    expect(await english.locator('.purchase__price').innerText()).toContain('99.00');
    await chinese.reload();
    expect(await chinese.locator('.purchase__price').innerText()).toContain('99.00');

    await page.goto(`${suite.server.url}/admin/products?q=${tag}`);
    await page.getByRole('link', { name: `Moon jar ${tag}` }).waitFor();
    await shoot(page, 'products-list-en-desktop');
  }, 90_000);
});
