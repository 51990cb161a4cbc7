import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { products } from '../../server/db/schema';
import { ACCOUNT_TEST_ENV, registerUser } from '../support/accounts';
import { useBrowserSuite } from '../support/browser';
import { germanAddress, prepareSku } from '../support/buyers';

/**
 * The address form takes any town (the area data only suggests), names the postal-code format
 * a country wants, and the product page's shipping promise for the buyer's country says what
 * checkout then charges (ADRs 0118 and 0119).
 */
const suite = useBrowserSuite({ env: ACCOUNT_TEST_ENV, viewport: { width: 1280, height: 900 } });

const TEXT = {
  en: {
    postalCode: 'Enter a 5-digit postal code, e.g. 94103',
    germany: 'Free shipping to Germany on orders of CN¥899.00 or more, otherwise from CN¥88.00',
    fee: 'CN¥88.00',
  },
  'zh-cn': {
    postalCode: '请输入 5 位数字的邮政编码，例如 94103',
    germany: '寄往德国满 899.00元 包邮，未满运费 88.00元 起',
    fee: '88.00元',
  },
} as const;

async function signedInPage(locale: string) {
  const buyer = await registerUser(suite.server);
  const page = await suite.open();
  await suite.context.addCookies([{ name: 'access_token', value: buyer.token, url: suite.server.url }]);
  return { buyer, page, url: `${suite.server.url}/${locale}` };
}

describe.each(['en', 'zh-cn'] as const)('address form (%s)', (locale) => {
  it('saves a town missing from the suggestions, after refusing a postal code of the wrong shape', async () => {
    const { buyer, page, url } = await signedInPage(locale);
    await page.goto(`${url}/my/address`);
    await page.getByTestId('address-add').click();
    const form = page.getByTestId('address-form');
    await form.getByTestId('address-country').selectOption('US');
    await form.getByTestId('address-province').selectOption('US-CA');
    // California's towns arrive as suggestions for a field that takes any text.
    await expect.poll(() => form.locator('datalist option').count()).toBeGreaterThan(1000);
    expect(await form.locator('datalist option[value="Gualala"]').count()).toBe(0);
    await form.getByTestId('address-city-text').fill('Gualala');
    await form.getByTestId('address-detail').fill('39150 Ocean Drive');
    await form.getByTestId('address-name').fill('Jane Doe');
    await form.getByTestId('address-phone').fill('+1 415 555 0132');
    const postal = form.getByTestId('address-postal');
    await postal.fill('9410');
    await form.getByTestId('address-save').click();

    // The message sits under the field, tied to it for screen readers.
    await expect.poll(() => postal.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await postal.getAttribute('aria-describedby'))!;
    const descriptions = await page.evaluate(
      (ids) => ids.split(' ').map((id) => document.getElementById(id)?.textContent),
      describedBy,
    );
    expect(descriptions).toContain(TEXT[locale].postalCode);
    expect(await postal.evaluate((input) => document.activeElement === input)).toBe(true);

    await postal.fill('95445');
    await form.getByTestId('address-save').click();
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('address-card').innerText()).toContain('Gualala');
    const stored = await suite.server.request('/v1/useraddress/list', {
      headers: { token: buyer.token, sign: buyer.sign },
    });
    expect(stored.body.data).toMatchObject([{ city_id: null, city: 'Gualala', postal_code: '95445' }]);
  });
});

describe.each(['en', 'zh-cn'] as const)('shipping promise (%s)', (locale) => {
  it("shows the buyer's country's line on the product page, and checkout charges what it says", async () => {
    const sku = await prepareSku(suite.server, { stock: 20, priceMinor: 10_000, weightGrams: 400 });
    await suite.server.ctx.db
      .update(products)
      .set({ serviceNotes: [3] })
      .where(eq(products.id, sku.productId));
    const { buyer, page, url } = await signedInPage(locale);
    const saved = await suite.server.request('/v1/useraddress', {
      method: 'POST',
      headers: { token: buyer.token, sign: buyer.sign, lang: locale },
      body: germanAddress,
    });
    expect(saved.status).toBe(200);

    // Any page's visitor call learns the country; the next document shows Germany's line only.
    const [visitorAnswer] = await Promise.all([
      page.waitForResponse((response) => new URL(response.url()).pathname === '/v1/visitor'),
      page.goto(`${url}/`),
    ]);
    await visitorAnswer.finished();
    await page.goto(`${url}/product/${sku.productId}`);
    const visible = page.locator('.service-notes__list li:visible');
    await expect.poll(() => visible.allInnerTexts()).toEqual([TEXT[locale].germany]);

    await page.goto(`${url}/order/confirm_order?sku_id=${sku.id}&quantity=1`);
    await expect.poll(() => page.getByTestId('order-shipping-fee').innerText()).toBe(TEXT[locale].fee);
  });
});
