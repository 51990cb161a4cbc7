import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { exchangeRates } from '../../server/db/schema';
import { bumpContentVersion } from '../../server/shared/content-version';
import { useBrowserSuite } from '../support/browser';
import { createSignedInStaff } from '../support/staff';

/** The console's currencies screen in Chromium (ADR 0144): a stale rate on home, updated on the screen. Needs `npm run build`. */
const suite = useBrowserSuite({
  viewport: { width: 1280, height: 900 },
  // The refused slip: the browser logs the API's 400 answer, which the page shows as a message.
  expectedProblems: /status of 400/,
});

describe('exchange rates in the console', () => {
  it('home flags a stale rate; updating it on the currencies screen makes it current', async () => {
    await suite.server.ctx.db
      .update(exchangeRates)
      .set({ setAt: new Date(Date.now() - 80 * 3_600_000) })
      .where(eq(exchangeRates.currency, 'GBP'));
    await bumpContentVersion(suite.server.ctx);
    const staff = await createSignedInStaff(suite.server, { permissions: ['settings:write', 'orders:read'] });
    const page = await suite.open();
    await suite.context.addCookies(
      Object.entries(staff.cookies).map(([name, value]) => ({ name, value, url: suite.server.url })),
    );

    await page.goto(`${suite.server.url}/admin`);
    const card = page.getByTestId('stale-rates');
    await card.waitFor();
    expect(await card.innerText()).toContain('GBP: buyers are charged in CNY until the rates are updated.');
    await card.getByRole('link', { name: 'Update rates' }).click();

    await page.getByRole('heading', { level: 1, name: 'Currencies and exchange rates' }).waitFor();
    const gbp = page.getByTestId('rate-GBP');
    expect(await gbp.innerText()).toContain('Stale');
    await gbp.getByRole('button', { name: 'Update the GBP rate' }).click();
    await page.getByLabel('Units of GBP per 1 CNY').fill('0.1104');
    await page.getByLabel('Source').fill('ECB reference rate 2026-11-27');
    await page.getByTestId('rate-save').click();
    await page.getByText('The GBP rate is saved; prices follow at once.').waitFor();
    await expect.poll(() => gbp.innerText()).toContain('0.110400');
    expect(await gbp.innerText()).toContain('Current');
    expect(await gbp.innerText()).toContain(staff.email);
    expect(await page.getByTestId('stale-rates-hint').count()).toBe(0);
  }, 90_000);

  it('refuses a slip of a hundred times the current rate with the localized message, and changes nothing', async () => {
    const staff = await createSignedInStaff(suite.server, { permissions: ['settings:write'] });
    const page = await suite.open();
    await suite.context.addCookies(
      Object.entries(staff.cookies).map(([name, value]) => ({ name, value, url: suite.server.url })),
    );
    await page.goto(`${suite.server.url}/admin/settings/currencies`);
    await page.getByTestId('rate-JPY').getByRole('button', { name: 'Update the JPY rate' }).click();
    await page.getByLabel('Units of JPY per 1 CNY').fill('2137');
    await page.getByLabel('Source').fill('typed in a hurry');
    await page.getByTestId('rate-save').click();
    await page.getByText('The new rate is more than twice or less than half the current 21.370000.').waitFor();
    expect(await page.getByTestId('rate-JPY').innerText()).toContain('21.370000');
  }, 60_000);
});
