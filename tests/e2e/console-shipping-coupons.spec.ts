import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { coupons } from '../../server/db/schema';
import { untilHydrated, useBrowserSuite } from '../support/browser';
import { germanAddress, makeShopper, prepareSku } from '../support/buyers';
import { createSignedInStaff } from '../support/staff';

/**
 * The console's shipping rules and coupons in Chromium, seen from the storefront's confirm
 * page: a changed zone fee is what the buyer is charged next, and a coupon made in the console
 * takes its amount off. Needs `npm run build`.
 */
const suite = useBrowserSuite({ viewport: { width: 1280, height: 900 } });

/** One browser context with a console member (`settings:write`) and a German buyer signed in. */
async function consoleAndBuyer() {
  const staff = await createSignedInStaff(suite.server, { permissions: ['settings:write'] });
  const buyer = await makeShopper(suite.server, germanAddress);
  const page = await suite.open();
  await suite.context.addCookies([
    ...Object.entries(staff.cookies).map(([name, value]) => ({ name, value, url: suite.server.url })),
    { name: 'access_token', value: buyer.headers.token, url: suite.server.url },
  ]);
  return { page, buyer };
}

async function confirmPage(page: Page, skuId: number, coupon?: string) {
  const query = new URLSearchParams({ sku_id: String(skuId), quantity: '1', ...(coupon ? { coupon } : {}) });
  await page.goto(`${suite.server.url}/en/order/confirm_order?${query}`);
  await page.getByTestId('order-shipping-fee').waitFor();
}

describe('shipping rules', () => {
  it("a zone's new fee is what the confirm page charges next", async () => {
    // 1.2 kg at 100.00 to Germany: seeded 88.00 for 500 g + two started 500 g at 30.00 = 148.00.
    const sku = await prepareSku(suite.server, { stock: 20, priceMinor: 10_000, weightGrams: 1_200 });
    const { page } = await consoleAndBuyer();
    await confirmPage(page, sku.id);
    expect(await page.getByTestId('order-shipping-fee').innerText()).toContain('148.00');

    await page.goto(`${suite.server.url}/admin/shipping`);
    await page.getByRole('heading', { level: 1, name: 'Shipping rules' }).waitFor();
    expect(await page.locator('#zone-2-countries').inputValue()).toBe('GB, DE, FR');
    // The preview (Germany, 1.2 kg) follows the edit before it is saved.
    await expect
      .poll(() => page.getByTestId('shipping-preview').innerText())
      .toBe('A 1.2 kg parcel to Germany costs CN¥148.00');
    await page.locator('#zone-2-firstFee').fill('60.00');
    await expect
      .poll(() => page.getByTestId('shipping-preview').innerText())
      .toBe('A 1.2 kg parcel to Germany costs CN¥120.00');
    await page.getByRole('button', { name: 'Save rules' }).click();
    await page.getByText('Shipping rules saved.', { exact: false }).waitFor();

    // 60.00 + two started 500 g at 30.00.
    await confirmPage(page, sku.id);
    expect(await page.getByTestId('order-shipping-fee').innerText()).toContain('120.00');
  }, 90_000);

  it('refuses a country in two zones with the localized message, before saving', async () => {
    const { page } = await consoleAndBuyer();
    await page.goto(`${suite.server.url}/admin/shipping`);
    await page.getByRole('heading', { level: 1, name: 'Shipping rules' }).waitFor();
    await page.locator('#zone-0-countries').fill('CN, DE');
    await page.getByRole('button', { name: 'Save rules' }).click();
    expect(await page.getByRole('alert').first().innerText()).toBe('DE is in more than one zone');
  });
});

describe('coupons', () => {
  it('a coupon created in the console takes its amount off at checkout and counts its use', async () => {
    const sku = await prepareSku(suite.server, { stock: 20, priceMinor: 10_000 });
    const { page } = await consoleAndBuyer();
    await page.goto(`${suite.server.url}/admin/coupons`);
    await page.getByRole('heading', { level: 1, name: 'Coupons' }).waitFor();
    await page.getByRole('button', { name: 'New coupon' }).click();
    await page.getByLabel('Code').fill('e2e-ten');
    await page.getByLabel('Kind').selectOption('fixed');
    await page.getByLabel('Amount off (CNY)').fill('12.50');
    await page.getByRole('button', { name: 'Save coupon' }).click();
    await page.getByText('Coupon E2E-TEN saved.').waitFor();
    const row = page.getByRole('row').filter({ hasText: 'E2E-TEN' });
    expect(await row.innerText()).toContain('CN¥12.50 off');

    await confirmPage(page, sku.id, 'e2e-ten');
    expect(await page.getByTestId('coupon-applied').innerText()).toContain('E2E-TEN');
    expect(await page.getByTestId('order-discount').innerText()).toContain('12.50');
    await untilHydrated(page.getByTestId('place-order'));
    await page.getByTestId('place-order').click();
    await page.waitForURL(/\/order\/pay\?order_id=\d+/);

    await page.goto(`${suite.server.url}/admin/coupons`);
    const used = page.getByRole('row').filter({ hasText: 'E2E-TEN' });
    await used.waitFor();
    const cells = await used.getByRole('cell').allInnerTexts();
    // Code, discount, minimum spend, valid, used, buyers, discount given, status.
    expect(cells.slice(0, 8)).toEqual(['E2E-TEN', 'CN¥12.50 off', 'CN¥0.00', 'Always', '1', '1', 'CN¥12.50', 'Active']);

    // Editing a used coupon says what can no longer change.
    await used.getByRole('button', { name: 'Edit' }).click();
    await page.getByText('Used by orders: the code, kind and value can no longer change.').waitFor();
    expect(await page.getByLabel('Code').getAttribute('readonly')).not.toBeNull();

    await page.getByRole('button', { name: 'Close' }).click();
    await used.getByRole('button', { name: 'Disable' }).click();
    await page.getByText('Coupon E2E-TEN disabled: checkout refuses it.').waitFor();
    const [stored] = await suite.server.ctx.db.select().from(coupons).where(eq(coupons.code, 'E2E-TEN'));
    expect(stored?.active).toBe(false);
  }, 90_000);
});
