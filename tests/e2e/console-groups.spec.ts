import { asc, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { productGroups, staffMembers } from '../../server/db/schema';
import type { Locale } from '../../i18n/locales';
import { useBrowserSuite } from '../support/browser';
import { createSignedInStaff } from '../support/staff';

/**
 * The groups editor in Chromium (app/admin/routes/groups.tsx): a Catalogue member reorders the
 * home sections from the keyboard and by dragging, and the storefront's home shows the new
 * order in both languages at once (the home's cached page is retired). Needs `npm run build`.
 */
const suite = useBrowserSuite({ viewport: { width: 1280, height: 900 } });

async function consoleAs(locale: Locale): Promise<Page> {
  const staff = await createSignedInStaff(suite.server, { role: 'catalogue' });
  await suite.server.ctx.db.update(staffMembers).set({ locale }).where(eq(staffMembers.id, staff.id));
  const page = await suite.open();
  await suite.context.addCookies(
    Object.entries(staff.cookies).map(([name, value]) => ({ name, value, url: suite.server.url })),
  );
  return page;
}

/** The home sections as the database orders them, with their names in both languages. */
async function sections() {
  return suite.server.ctx.db
    .select({ id: productGroups.id, name: productGroups.name })
    .from(productGroups)
    .where(eq(productGroups.kind, 'collection'))
    .orderBy(asc(productGroups.sort), asc(productGroups.id));
}

/** The section titles of the storefront's home, top to bottom, as a visitor gets them. */
async function homeTitles(locale: Locale): Promise<string[]> {
  const page = await suite.browser.newPage();
  try {
    await page.goto(`${suite.server.url}/${locale}/`);
    return await page.locator('.collection .section-head__title').allInnerTexts();
  } finally {
    await page.close();
  }
}

function moveAnswer(page: Page) {
  return page.waitForResponse((response) => /\/v1\/admin\/groups\/\d+\/move$/.test(response.url()));
}

describe('reordering the home sections', () => {
  it('moves a section up from the keyboard and by dragging; the home follows in English and Chinese', async () => {
    const before = await sections();
    expect(before.length).toBeGreaterThanOrEqual(3);
    // Visitors have the home cached in both languages before the change.
    expect(await homeTitles('en')).toEqual(before.map((section) => section.name.en));
    expect(await homeTitles('zh-cn')).toEqual(before.map((section) => section.name['zh-cn']));

    const page = await consoleAs('en');
    await page.goto(`${suite.server.url}/admin/groups`);
    const list = page.getByRole('list', { name: 'Home sections' });
    const last = before.at(-1)!;
    const handle = list.getByRole('button', { name: `Drag to reorder ${last.name.en}` });
    await handle.focus();
    const answered = moveAnswer(page);
    await page.keyboard.press('ArrowUp');
    expect((await answered).status()).toBe(200);
    // Focus stays on the moved row, announced for screen readers.
    await expect.poll(() => handle.evaluate((node) => node === document.activeElement)).toBe(true);
    await page.getByText(`${last.name.en} moved to position ${before.length - 1}`).waitFor();

    const afterKeyboard = [...before.slice(0, -2), last, before.at(-2)!];
    expect((await sections()).map((section) => section.id)).toEqual(afterKeyboard.map((section) => section.id));
    expect(await homeTitles('en')).toEqual(afterKeyboard.map((section) => section.name.en));
    expect(await homeTitles('zh-cn')).toEqual(afterKeyboard.map((section) => section.name['zh-cn']));

    // Dragging the first section onto the last row puts it last.
    const first = afterKeyboard[0]!;
    const dragged = moveAnswer(page);
    await list
      .getByRole('button', { name: `Drag to reorder ${first.name.en}` })
      .dragTo(list.locator(`[data-sortable-id="${afterKeyboard.at(-1)!.id}"]`));
    expect((await dragged).status()).toBe(200);
    const afterDrag = [...afterKeyboard.slice(1), first];
    expect((await sections()).map((section) => section.id)).toEqual(afterDrag.map((section) => section.id));
    expect(await homeTitles('en')).toEqual(afterDrag.map((section) => section.name.en));
    expect(await homeTitles('zh-cn')).toEqual(afterDrag.map((section) => section.name['zh-cn']));
    // Nine page loads in two languages: longer than the default on a loaded machine.
  }, 120_000);

  it('speaks Chinese to a member whose console language is Chinese, names side by side', async () => {
    const page = await consoleAs('zh-cn');
    await page.goto(`${suite.server.url}/admin/groups`);
    await page.getByRole('heading', { name: '分组与首页栏目' }).waitFor();
    const [section] = await sections();
    await page
      .getByRole('list', { name: '首页栏目' })
      .getByRole('button', { name: `${section!.name.en} ${section!.name['zh-cn']}` })
      .click();
    await expect.poll(() => page.getByLabel('名称（English）').inputValue()).toBe(section!.name.en);
    expect(await page.getByLabel('名称（简体中文）').inputValue()).toBe(section!.name['zh-cn']);
  });
});
