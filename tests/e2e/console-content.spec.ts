import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { untilHydrated, useBrowserSuite } from '../support/browser';
import { createSignedInStaff, type TestStaff } from '../support/staff';

/**
 * Content pages and settings in Chromium: a page edited in both languages, previewed with the
 * storefront's blocks, saved and seen on the storefront; the announcement bar set, seen,
 * dismissed. Needs `npm run build`.
 */
const suite = useBrowserSuite({ viewport: { width: 1280, height: 900 } });

async function consoleEditor(): Promise<{ page: Page; staff: TestStaff }> {
  const staff = await createSignedInStaff(suite.server, { permissions: ['settings:write'] });
  const page = await suite.open();
  await suite.context.addCookies(
    Object.entries(staff.cookies).map(([name, value]) => ({ name, value, url: suite.server.url })),
  );
  return { page, staff };
}

describe('the content page editor', () => {
  it('edits a page in both languages, previews it, saves it, and the storefront shows it', async () => {
    const { page, staff } = await consoleEditor();
    const start = await staff.request('/v1/admin/content-pages/our-story', {
      method: 'PUT',
      body: {
        title: { en: 'Our story', 'zh-cn': '我们的故事' },
        summary: { en: 'How we began.', 'zh-cn': '我们如何开始。' },
        blocks: {
          en: [{ type: 'heading', text: 'The studio' }],
          'zh-cn': [{ type: 'heading', text: '工作室' }],
        },
      },
    });
    expect(start.status).toBe(200);

    await page.goto(`${suite.server.url}/admin/content/our-story`);
    await page.getByRole('heading', { level: 2, name: 'Blocks · English' }).waitFor();
    await page.locator('#block-en-0-text').fill('A table by the window');
    await page.locator('#block-zh-cn-0-text').fill('窗边的一张桌子');
    await page.getByRole('button', { name: 'Add a block' }).first().click();
    await page.locator('#block-en-1-text').fill('We started with two chairs and a kiln.');

    await page.getByRole('button', { name: 'Preview · English' }).click();
    const preview = page.locator('.content-preview__page');
    await expect.poll(() => preview.locator('h2').first().innerText()).toBe('A table by the window');
    expect(await preview.locator('.prose__paragraph').innerText()).toBe('We started with two chairs and a kiln.');
    await page.getByRole('button', { name: 'Preview · Chinese' }).click();
    await expect.poll(() => preview.locator('h2').first().innerText()).toBe('窗边的一张桌子');

    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => page.getByRole('status').first().innerText())
      .toBe('Saved. The storefront shows the new page in both languages.');

    const store = await suite.open();
    await store.goto(`${suite.server.url}/en/our-story`);
    expect(await store.locator('.prose h2').first().innerText()).toBe('A table by the window');
    expect(await store.locator('.prose').innerText()).toContain('We started with two chairs and a kiln.');
    await store.goto(`${suite.server.url}/zh-cn/our-story`);
    expect(await store.locator('.prose h2').first().innerText()).toBe('窗边的一张桌子');
  });

  it('shows the API’s refusal when a block holds a tag, and saves nothing', async () => {
    const { page, staff } = await consoleEditor();
    const before = await staff.request('/v1/admin/content-pages/faq');
    await page.goto(`${suite.server.url}/admin/content/faq`);
    await page.getByRole('heading', { level: 2, name: 'Blocks · English' }).waitFor();
    await page.getByRole('button', { name: 'Add a block' }).first().click();
    const added = before.body.data.blocks.en.length;
    await page.locator(`#block-en-${added}-text`).fill('<script>alert(1)</script>');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => page.getByRole('alert').first().innerText())
      .toBe('Text must be plain text: HTML tags are not allowed');
    suite.forgiveHttpErrors(400);
    const after = await staff.request('/v1/admin/content-pages/faq');
    expect(after.body.data.blocks).toEqual(before.body.data.blocks);
  });
});

describe('the announcement bar', () => {
  it('is set in the settings, shown in each language, and a visitor can dismiss it', async () => {
    const { page } = await consoleEditor();
    await page.goto(`${suite.server.url}/admin/settings`);
    await page.getByRole('heading', { level: 2, name: 'Announcement bar' }).waitFor();
    await page.locator('#announcement-en').fill('Studio sale: 10% off until Sunday');
    await page.locator('#announcement-zh-cn').fill('工作室特卖：周日前九折');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => page.getByRole('status').first().innerText())
      .toBe('Settings saved. Every page shows them now.');

    const store = await suite.open();
    await store.goto(`${suite.server.url}/en/faq`);
    const bar = store.getByRole('complementary', { name: 'Announcement' });
    expect(await bar.innerText()).toContain('Studio sale: 10% off until Sunday');
    await store.goto(`${suite.server.url}/zh-cn/faq`);
    expect(await store.getByRole('complementary', { name: '公告' }).innerText()).toContain('工作室特卖：周日前九折');

    await store.goto(`${suite.server.url}/en/`);
    const close = store.getByRole('button', { name: 'Dismiss the announcement' });
    await untilHydrated(close);
    await close.click();
    await expect.poll(() => bar.count()).toBe(0);
    await store.goto(`${suite.server.url}/en/faq`);
    await store.locator('.prose').waitFor();
    await expect.poll(() => bar.count()).toBe(0);
  });
});
