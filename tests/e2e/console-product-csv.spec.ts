import { writeFileSync } from 'node:fs';
import { asc, like } from 'drizzle-orm';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { productImages, products } from '../../server/db/schema';
import { PRODUCT_CSV_COLUMNS } from '../../server/domains/catalog/product-csv.schemas';
import { useBrowserSuite } from '../support/browser';
import { createSignedInStaff } from '../support/staff';

/** The console's products CSV screen in Chromium (ADR 0161). Needs `npm run build`. */
const suite = useBrowserSuite({ viewport: { width: 1280, height: 900 } });

describe('products as CSV in the console', () => {
  it('checks a file, lists its problems by row, then imports the fixed file with a bar for the rows written', async () => {
    const [image] = await suite.server.ctx.db.select().from(productImages).orderBy(asc(productImages.id)).limit(1);
    const handle = `browser-csv-${process.pid}-${Date.now().toString(36)}`;
    // Thirty products, so the import's progress lines arrive over many reads.
    const file = (price: string) =>
      stringify([
        [...PRODUCT_CSV_COLUMNS],
        ...Array.from({ length: 30 }, (_, index) =>
          PRODUCT_CSV_COLUMNS.map(
            (column) =>
              ({
                Handle: `${handle}-${index}`,
                Title: index === 0 ? 'Browser CSV bowl' : `Browser CSV bowl ${index}`,
                'Title (zh-cn)': '浏览器 CSV 碗',
                'Variant SKU': `${handle}-${index}`,
                'Variant Price': index === 0 ? price : '18.50',
                'Variant Grams': '300',
                'Image Src': image!.url,
              })[column as string] ?? '',
          ),
        ),
      ]);
    writeFileSync(`/tmp/${handle}-broken.csv`, file('-1.00'));
    writeFileSync(`/tmp/${handle}-good.csv`, file('18.50'));
    const staff = await createSignedInStaff(suite.server, { role: 'catalogue' });
    const page = await suite.open();
    await suite.context.addCookies(
      Object.entries(staff.cookies).map(([name, value]) => ({ name, value, url: suite.server.url })),
    );

    await page.goto(`${suite.server.url}/admin/products`);
    await page.getByRole('link', { name: 'Import / export CSV' }).click();
    await page.getByRole('heading', { level: 1, name: 'Import and export products' }).waitFor();
    await page.getByLabel('CSV file').setInputFiles(`/tmp/${handle}-broken.csv`);
    await page.getByRole('button', { name: 'Check file' }).click();
    const alert = page.getByText('Problems found: 1. Nothing was written: fix the file and check it again.');
    await alert.waitFor();
    const row = page.locator('.csv-import__report tbody tr');
    expect(await row.innerText()).toBe('2\tVariant Price\tA price cannot be negative');
    expect(await page.getByRole('button', { name: 'Import' }).isDisabled()).toBe(true);

    await page.getByLabel('CSV file').setInputFiles(`/tmp/${handle}-good.csv`);
    await page.getByRole('button', { name: 'Check file' }).click();
    await page.getByText('No problems found. Import writes only what changed, one product at a time.').waitFor();
    // Every text the progress bar's label shows while the import runs.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressSeen: string[] }).progressSeen = seen;
      new MutationObserver(() => {
        const label = document.querySelector('.csv-import__progress span')?.textContent;
        if (label && seen.at(-1) !== label) seen.push(label);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByText('Imported: 30 products created, 0 updated.').waitFor();
    const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
    expect(seen.filter((label) => /^Writing rows: \d+ of 30$/.test(label)).length).toBeGreaterThan(1);
    expect(seen.at(-1)).toMatch(/^Writing rows: \d+ of 30$/);

    const list = await staff.request(`/v1/admin/products?q=${handle}-0`);
    expect(list.body.data.records.map((record: { name: { en: string } }) => record.name.en)).toEqual([
      'Browser CSV bowl',
    ]);
    const imported = await suite.server.ctx.db
      .select({ id: products.id })
      .from(products)
      .where(like(products.slug, `${handle}-%`));
    expect(imported.length).toBe(30);
  }, 120_000);
});
