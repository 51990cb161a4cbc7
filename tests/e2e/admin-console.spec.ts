import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { orders, payments } from '../../server/db/schema';
import { PERMISSIONS, type BuiltInRoleKey } from '../../server/domains/staff/permissions';
import { useBrowserSuite } from '../support/browser';
import { makeBuyer } from '../support/buyers';
import { createSignedInStaff, STAFF_TEST_PASSWORD, type TestStaff } from '../support/staff';

/**
 * The console in Chromium (app/admin): signing in, the orders list and its URL, shipping from
 * an order's page, what a Fulfilment member's menu offers, the language switch, and axe on
 * the main screens. Needs `npm run build`.
 */
const suite = useBrowserSuite({ viewport: { width: 1440, height: 900 } });
const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** A signed-in console page; `everything` is a custom role with every permission (an Owner must enrol two-step first). */
async function consoleAs(role: BuiltInRoleKey | 'everything'): Promise<{ page: Page; staff: TestStaff }> {
  const staff = await createSignedInStaff(
    suite.server,
    role === 'everything' ? { permissions: PERMISSIONS, refundLimitMinor: null } : { role },
  );
  const page = await suite.open();
  await suite.context.addCookies(
    Object.entries(staff.cookies).map(([name, value]) => ({ name, value, url: suite.server.url })),
  );
  return { page, staff };
}

let orderCounter = 0;

/** A paid order waiting to ship (status 10), with its captured sandbox payment, for a fresh buyer. */
async function paidOrder(options: {
  contactName: string;
  countryCode?: string;
  totalMinor?: number;
  buyerName?: string;
}) {
  const ctx = suite.server.ctx;
  const buyer = await makeBuyer(suite.server, options.buyerName);
  orderCounter += 1;
  const totalMinor = options.totalMinor ?? 25_900;
  const orderNo = `E2E${Date.now()}${orderCounter}`;
  const [order] = await ctx.db
    .insert(orders)
    .values({
      orderNo,
      userId: buyer.id,
      locale: 'en',
      currency: 'CNY',
      status: 10,
      payStatus: 2,
      paidAt: new Date(),
      goodsAmountMinor: totalMinor - 1_000,
      shippingFeeMinor: 1_000,
      totalMinor,
      displayCurrency: 'CNY',
      displayRateMicros: 1_000_000,
      displayTotalMinor: totalMinor,
      address: {
        country_code: options.countryCode ?? 'US',
        country_name: { en: 'United States', 'zh-cn': '美国' },
        province_id: null,
        province_name: { en: 'California', 'zh-cn': '加利福尼亚' },
        city_id: null,
        city_name: { en: 'San Francisco', 'zh-cn': '旧金山' },
        detail: '1 Market Street',
        postal_code: '94105',
        contact_name: options.contactName,
        contact_phone: '4155550100',
      },
      paymentDeadline: new Date(Date.now() + 30 * 60_000),
    })
    .returning({ id: orders.id });
  if (!order) throw new Error('inserting a paid order returned no row');
  await ctx.db.insert(payments).values({
    orderId: order.id,
    userId: buyer.id,
    provider: 'sandbox',
    method: 'sandbox',
    providerRef: `sbx_${orderNo}`,
    chargeRef: `ch_${orderNo}`,
    amountMinor: totalMinor,
    currency: 'CNY',
    chargedAmountMinor: totalMinor,
    chargedCurrency: 'CNY',
    status: 'succeeded',
    paidAt: new Date(),
  });
  return { id: order.id, orderNo, buyer };
}

async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axeSource });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document,
          ) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document);
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')}`);
  });
}

describe('signing in', () => {
  it('sends a visitor to the sign-in page and back to where they were going', async () => {
    const staff = await createSignedInStaff(suite.server, { role: 'manager' });
    const page = await suite.open();
    await page.goto(`${suite.server.url}/admin/orders?status=10`);
    await page.waitForURL(/\/admin\/sign-in\?next=/);
    await page.getByLabel('Email').fill(staff.email);
    await page.getByLabel('Password').fill(STAFF_TEST_PASSWORD);
    await page.getByLabel('Password').press('Enter');
    await page.waitForURL(`${suite.server.url}/admin/orders?status=10`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Orders');
    expect(await page.locator('.console-sidebar').innerText()).toContain(staff.email);
  });

  it('speaks the language of the lang cookie before anyone signs in', async () => {
    const page = await suite.open();
    await suite.context.addCookies([{ name: 'lang', value: 'zh-cn', url: suite.server.url }]);
    await page.goto(`${suite.server.url}/admin/sign-in`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('登录店铺后台');
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN');
  });
});

describe('orders', () => {
  it('keeps the filters in the URL and lists what matches', async () => {
    const wanted = await paidOrder({ contactName: 'Filter Target', countryCode: 'US' });
    await paidOrder({ contactName: 'Someone Else', countryCode: 'US' });
    const { page } = await consoleAs('manager');
    await page.goto(`${suite.server.url}/admin/orders`);
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
    await page.getByLabel('Search orders').fill(wanted.orderNo);
    await page.locator('.filter-bar select[name="status"]').selectOption('10');
    await page.locator('.filter-bar input[name="country"]').fill('US');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL((url) => url.searchParams.get('q') === wanted.orderNo);
    const url = new URL(page.url());
    expect(url.searchParams.get('status')).toBe('10');
    expect(url.searchParams.get('country')).toBe('US');
    await expect.poll(() => page.locator('.data-table tbody tr').count()).toBe(1);
    expect(await page.locator('.data-table tbody').innerText()).toContain('Filter Target');

    // Sorting is a URL change too, and a reload keeps everything.
    await page.getByRole('button', { name: /Total/ }).click();
    await page.waitForURL((next) => next.searchParams.get('sort') === 'total');
    await page.reload();
    await expect.poll(() => page.getByLabel('Search orders').inputValue()).toBe(wanted.orderNo);
    expect(await page.locator('th[aria-sort]').getAttribute('aria-sort')).toBe('descending');
  });

  it('ships an order from its page', async () => {
    const order = await paidOrder({ contactName: 'Ship Me' });
    const { page } = await consoleAs('fulfilment');
    await page.goto(`${suite.server.url}/admin/orders/${order.id}`);
    await page.getByRole('heading', { name: `Order ${order.orderNo}` }).waitFor();
    expect(await page.getByRole('button', { name: 'Refund' }).count()).toBe(0);
    await page.getByLabel('Tracking number').fill('1Z999AA10123456784');
    await page.getByRole('button', { name: 'Ship the order' }).click();
    await expect.poll(() => page.getByRole('status').first().innerText()).toContain('Shipped');
    await expect.poll(() => page.locator('.pill-row').innerText()).toContain('Shipped');
    expect(await page.locator('.facts').innerText()).toContain('1Z999AA10123456784');
  });
});

describe('permissions', () => {
  it('shows a Fulfilment member only what their role allows', async () => {
    const { page } = await consoleAs('fulfilment');
    await page.goto(`${suite.server.url}/admin/orders`);
    const nav = page.getByRole('navigation').filter({ has: page.locator('.console-nav__link') });
    await nav.waitFor();
    const entries = await nav.locator('.console-nav__text').allInnerTexts();
    expect(entries).toEqual(['Home', 'Orders', 'After-sales', 'Profile']);
  });

  it("names each role's permissions in words, with the identifier as a hint", async () => {
    const { page } = await consoleAs('everything');
    await page.goto(`${suite.server.url}/admin/roles`);
    const fulfilment = page.getByRole('article', { name: 'Fulfilment' }).locator('.permission-tags');
    await fulfilment.waitFor();
    expect(await fulfilment.locator('li').allInnerTexts()).toEqual([
      'See orders and the home page',
      'Ship, track and mark delivered',
      'Write internal notes',
      'See after-sale requests',
      'Approve, reject and receive after-sale requests, ship exchanges',
    ]);
    expect(await fulfilment.locator('li').first().getAttribute('title')).toBe('orders:read');
  });

  it('at tablet width the orders list fits without scrolling sideways', async () => {
    // The longest name and address a buyer could bring (contact names are bounded by the address rules).
    await paidOrder({
      contactName: 'Maximiliane Alexandra Wolfeschlegelsteinhausen-Bergerdorff',
      buyerName: `averyverylongmailboxnameforabuyerwhowantseverything${Date.now()}`,
    });
    const { page } = await consoleAs('fulfilment');
    await page.setViewportSize({ width: 820, height: 1180 });
    await page.goto(`${suite.server.url}/admin/orders`);
    await page.locator('.data-table tbody tr').first().waitFor();
    const fits = await page.locator('.table-wrap').evaluate((wrap) => wrap.scrollWidth <= wrap.clientWidth);
    expect(fits).toBe(true);
  });

  it('at tablet width the menu opens over the page and closes with Escape or a tap beside it', async () => {
    const { page } = await consoleAs('fulfilment');
    await page.setViewportSize({ width: 820, height: 1180 });
    await page.goto(`${suite.server.url}/admin/orders`);
    const toggle = page.getByRole('button', { name: 'Expand the menu' });
    await toggle.click();
    await expect.poll(() => page.locator('.console-backdrop').count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('.console-backdrop').count()).toBe(0);
    await toggle.click();
    await page.locator('.console-backdrop').click({ position: { x: 700, y: 600 } });
    await expect.poll(() => page.locator('.console-backdrop').count()).toBe(0);
  });
});

describe('language', () => {
  it('switches the console to Chinese from the profile and remembers it', async () => {
    const { page } = await consoleAs('support');
    await page.goto(`${suite.server.url}/admin/profile`);
    await page.getByLabel('Language', { exact: true }).selectOption('zh-cn');
    await page.getByRole('button', { name: 'Save' }).first().click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('个人资料');
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN');
    await page.goto(`${suite.server.url}/admin/orders`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('订单');
  });
});

describe('accessibility', () => {
  it('has no serious axe violation on the main screens, light and dark', async () => {
    const order = await paidOrder({ contactName: 'Axe Check' });
    const { page } = await consoleAs('everything');
    for (const mode of ['light', 'dark']) {
      await suite.context.addCookies([{ name: 'color_mode', value: mode, url: suite.server.url }]);
      for (const path of [
        '/admin',
        '/admin/orders',
        `/admin/orders/${order.id}`,
        '/admin/customers',
        '/admin/staff',
        '/admin/roles',
        '/admin/audit',
        '/admin/shipping',
        '/admin/coupons',
        '/admin/profile',
      ]) {
        await page.goto(suite.server.url + path);
        await page.locator('.console-main h1').waitFor();
        expect(await seriousViolations(page), `${path} (${mode})`).toEqual([]);
      }
    }
    // Twenty scans (ten screens, two modes): longer than one step's default on a busy machine.
  }, 120_000);

  it('has no serious axe violation on the sign-in page', async () => {
    const page = await suite.open();
    await page.goto(`${suite.server.url}/admin/sign-in`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
