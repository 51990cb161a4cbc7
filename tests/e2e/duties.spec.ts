import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { orders, productSkus } from '../../server/db/schema';
import { ACCOUNT_TEST_ENV } from '../support/accounts';
import { useBrowserSuite } from '../support/browser';
import { germanAddress, makeShopper, prepareSku } from '../support/buyers';
import { decodedMail, useFakeSmtp } from '../support/mail';

/**
 * A DDP order to Germany in Chromium (ADR 0140): the "Duties and import taxes" line on the
 * confirm page, the pay page, the result page and the order detail, and in the order emails,
 * in both languages. Needs `npm run build`.
 */
const smtp = useFakeSmtp();
const suite = useBrowserSuite({ env: () => ({ ...ACCOUNT_TEST_ENV, SMTP_URL: smtp.url }) });

// Worked by hand as in tests/api/duties.test.ts: two T-shirts at CNY 250.00 (EUR 65.10), shipping
// CNY 88.00 (EUR 11.46), Germany from 1 July 2026: EUR 3.00 flat duty + 19% VAT of EUR 79.56 =
// EUR 18.12 = CNY 139.17, paid with the order; total CNY 727.17.
const TEXT = {
  en: {
    label: 'Duties and import taxes',
    note: 'Paid now: nothing more to pay on delivery',
    mail: 'Duties and import taxes: CN¥139.17',
  },
  'zh-cn': { label: '关税及进口税', note: '已随订单支付：收货时无需再付', mail: '关税及进口税：￥139.17' },
} as const;

describe.each([
  { locale: 'en', viewport: { width: 1280, height: 900 } },
  { locale: 'zh-cn', viewport: { width: 390, height: 844 } },
] as const)('duties on a DDP order to Germany ($locale)', ({ locale, viewport }) => {
  it('shows the duty line on confirm, pay, result and the order detail, and in the emails', async () => {
    const buyer = await makeShopper(suite.server, germanAddress);
    const sku = await prepareSku(suite.server, { stock: 20, priceMinor: 250_00, weightGrams: 200 });
    await suite.server.ctx.db
      .update(productSkus)
      .set({ hsCode: '610910', originCountry: 'CN', customsDescription: 'T-shirt, knitted, 100% cotton' })
      .where(eq(productSkus.id, sku.id));
    const page = await suite.open({ viewport });
    await suite.context.addCookies([{ name: 'access_token', value: buyer.headers.token, url: suite.server.url }]);
    const text = TEXT[locale];
    const dutyLine = async () => {
      const row = page.getByTestId('order-duties');
      await row.waitFor();
      return row.innerText();
    };

    // Confirm: the line, its amount and what it means, and the total that includes it.
    await page.goto(`${suite.server.url}/${locale}/order/confirm_order?sku_id=${sku.id}&quantity=2`);
    await expect.poll(dutyLine).toContain(text.label);
    expect(await dutyLine()).toContain('139.17');
    expect(await page.getByTestId('order-duties-note').innerText()).toBe(text.note);
    expect(await page.getByTestId('order-total').innerText()).toContain('727.17');

    // Pay: the same line above the button.
    await page.getByTestId('place-order').click();
    await page.waitForURL(/\/order\/pay\?order_id=\d+/);
    const orderId = Number(new URL(page.url()).searchParams.get('order_id'));
    expect(await dutyLine()).toContain('139.17');
    expect(await page.getByTestId('order-duties-note').innerText()).toBe(text.note);
    const [order] = await suite.server.ctx.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({ dutiesMinor: 139_17, totalMinor: 727_17 });

    // Result: paid at the sandbox, the note under the amount.
    await page.getByTestId('pay-button').click();
    await page.waitForURL(/\/sandbox-gateway\/checkout\//);
    await page.locator('button.pay').click();
    await page.waitForURL(new RegExp(`/${locale}/result/success\\?order_id=${orderId}`));
    await expect
      .poll(() => page.getByTestId('payment-result').getAttribute('data-outcome'), { timeout: 20_000 })
      .toBe('success');
    expect(await dutyLine()).toContain('139.17');
    expect(await page.getByTestId('order-duties-note').innerText()).toBe(text.note);

    // The order detail keeps it.
    await page.goto(`${suite.server.url}/${locale}/my/order/${orderId}`);
    expect(await dutyLine()).toContain(text.label);
    expect(await dutyLine()).toContain('139.17');

    // The emails, "order placed" and "payment received": each has the line and what it means.
    const withDuties = () =>
      smtp.inbox
        .filter((message) => message.to === buyer.email)
        .map((message) => decodedMail(message.raw))
        .filter((body) => body.includes(order!.orderNo) && body.includes(text.mail) && body.includes(text.note));
    await expect.poll(() => withDuties().length, { timeout: 20_000 }).toBe(2);
  }, 120_000);
});
