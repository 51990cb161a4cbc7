import { createRequire } from 'node:module';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { markOrderPaid } from '../../server/domains/orders/order-payment.service';
import { chinaAddress, makeShopper, placeOrderFor, prepareSku, usAddress, type Buyer } from '../support/buyers';
import { untilHydrated, useBrowserSuite } from '../support/browser';

/**
 * The signed-in buyer's way around the account area: the header's account menu on a desktop and
 * the phone menu's account section, both with the order counts of the My Orders tabs, and the
 * navigation beside the account pages; the account button's accessible name; on phones the
 * floating widget never covering an action; CN¥ for English readers; what an order's total is
 * called; and the contrast of the orange labels and the sandbox Pay button. Needs `npm run build`.
 */
const suite = useBrowserSuite({ viewport: { width: 1440, height: 900 } });
const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const PHONE = { width: 390, height: 844 };

/** A buyer with an address, one unpaid order (Pending Payment) and one paid (Pending Shipment). */
async function buyerWithOrders() {
  const buyer = await makeShopper(suite.server);
  const sku = await prepareSku(suite.server, { stock: 20 });
  const unpaid = await placeOrderFor(buyer, sku.id);
  const paid = await placeOrderFor(buyer, sku.id);
  expect((await markOrderPaid(suite.server.ctx, { orderId: paid.id, paymentId: `nav-${paid.id}` })).outcome).toBe(
    'paid',
  );
  return { buyer, sku, unpaid, paid };
}

/** A page signed in as `buyer` through the session cookie the storefront sets at login. */
async function signedInPage(buyer: Buyer, options: Parameters<typeof suite.open>[0] = {}) {
  const token = buyer.headers.token;
  if (!token) throw new Error(`the buyer ${buyer.email} has no session token`);
  const page = await suite.open(options);
  await suite.context.addCookies([{ name: 'access_token', value: token, url: suite.server.url }]);
  return page;
}

function countOf(link: Locator) {
  return link.locator('.account-nav__count').innerText();
}

/** Whether two boxes share any pixel. */
function overlaps(a: { x: number; y: number; width: number; height: number }, b: typeof a) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/**
 * The chat button's box and `target`'s never overlap: with the page at the top, at the end, and
 * scrolled by the distance between their middles, which would slide the target right under a
 * button fixed to the screen.
 */
async function expectChatClearOf(page: Page, target: Locator) {
  const chat = page.locator('.floating-widget__button--primary');
  const boxes = async () => {
    const [chatBox, targetBox] = await Promise.all([chat.boundingBox(), target.boundingBox()]);
    expect(chatBox, 'the chat button is on the page').not.toBeNull();
    return { chatBox: chatBox!, targetBox: targetBox! };
  };
  for (const scroll of ['top', 'end', 'aligned'] as const) {
    if (scroll === 'aligned') {
      const { chatBox, targetBox } = await boxes();
      const distance = targetBox.y + targetBox.height / 2 - (chatBox.y + chatBox.height / 2);
      await page.evaluate((by) => window.scrollBy(0, by), distance);
    } else {
      await page.evaluate((to) => window.scrollTo(0, to === 'top' ? 0 : document.body.scrollHeight), scroll);
    }
    const { chatBox, targetBox } = await boxes();
    expect(overlaps(chatBox, targetBox), `overlap with the page scrolled ${scroll}`).toBe(false);
  }
}

/** Texts whose contrast axe finds under WCAG AA, as `selector: ratio`. */
async function contrastFailures(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axeSource });
  return page.evaluate(async () => {
    type Result = { violations: { nodes: { target: unknown; any: { data?: { contrastRatio?: number } }[] }[] }[] };
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<Result> } }).axe;
    const result = await axe.run(document, { runOnly: ['color-contrast'] });
    return result.violations.flatMap((violation) =>
      violation.nodes.map((node) => `${JSON.stringify(node.target)}: ${node.any[0]?.data?.contrastRatio}`),
    );
  });
}

describe('account navigation', () => {
  it('opens from the desktop header with the order counts and leads to My Orders and the address book', async () => {
    const { buyer } = await buyerWithOrders();
    const page = await signedInPage(buyer);
    await page.goto(`${suite.server.url}/en/`);

    // The button names the buyer it shows first (WCAG 2.5.3), then what it is.
    const button = page.locator('header .account-button--user');
    await button.waitFor();
    expect(await button.locator('.account-button__name').innerText()).toBe(buyer.username);
    const named = page.getByRole('button', { name: `${buyer.username} My account`, exact: true });
    expect(await named.getAttribute('aria-expanded')).toBe('false');

    await named.click();
    const menu = page.getByTestId('account-menu-popover');
    await menu.waitFor();
    expect(await named.getAttribute('aria-expanded')).toBe('true');
    expect(await menu.locator('.account-menu__greeting').innerText()).toBe(`Hello, ${buyer.username}`);
    await expect.poll(() => countOf(menu.getByTestId('account-nav-1'))).toBe('1');
    expect(await countOf(menu.getByTestId('account-nav-10'))).toBe('1');
    expect(await menu.getByTestId('account-nav-20').locator('.account-nav__count').count()).toBe(0);
    expect(await menu.getByRole('link').allInnerTexts()).toEqual([
      'My Orders',
      'Pending Payment\n1',
      'Pending Shipment\n1',
      'Pending Delivery',
      'After-Sales',
      'My addresses',
      'Profile and security',
    ]);
    expect(await menu.getByRole('button', { name: 'Log out' }).count()).toBe(1);

    // Escape closes it and gives focus back to the button.
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.classList.contains('account-button--user'))).toBe(true);

    await named.click();
    await menu.getByTestId('account-nav-1').click();
    await page.waitForURL(/\/en\/my\/order\?status=1$/);
    await menu.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('order-card').count()).toBe(1);
    // An unpaid order's total is what is due.
    expect(await page.locator('.order-card__total-label').innerText()).toBe('Amount due');

    // The account pages carry the same navigation beside them, the current entry marked.
    const side = page.locator('.account-nav--page');
    expect(await side.locator('[aria-current="page"]').innerText()).toBe('Pending Payment\n1');
    expect(await countOf(side.getByTestId('account-nav-10'))).toBe('1');
    await side.getByRole('link', { name: 'Pending Shipment' }).click();
    await page.waitForURL(/\/en\/my\/order\?status=10$/);
    // The address changes as the navigation starts to commit; the list follows a moment later.
    await expect.poll(() => page.locator('.order-card__total-label').innerText()).toBe('Total paid');
    await side.getByRole('link', { name: 'My addresses' }).click();
    await page.waitForURL(/\/en\/my\/address$/);
    await page.getByTestId('address-card').first().waitFor();
    expect(await side.locator('[aria-current="page"]').innerText()).toBe('My addresses');
  }, 60_000);

  it('is in the phone menu, with the counts, and the account pages show it as chips, all on screen', async () => {
    const { buyer } = await buyerWithOrders();
    const page = await signedInPage(buyer, { viewport: PHONE });
    await page.goto(`${suite.server.url}/zh-cn/product/cate/1`);
    await page.locator('header .account-button--user').waitFor();
    await untilHydrated(page.getByRole('button', { name: '打开菜单' }));
    await page.getByRole('button', { name: '打开菜单' }).click();
    const section = page.getByTestId('account-menu-drawer');
    await section.waitFor();
    await expect.poll(() => countOf(section.getByTestId('account-nav-1'))).toBe('1');
    expect(await countOf(section.getByTestId('account-nav-10'))).toBe('1');
    expect(await section.getByTestId('account-nav-1').innerText()).toBe('待付款\n1');

    await section.getByRole('link', { name: '收货地址' }).click();
    await page.waitForURL(/\/zh-cn\/my\/address$/);
    await page.locator('dialog.drawer').waitFor({ state: 'hidden' });
    const chips = page.locator('.account-nav--page');
    expect(await chips.locator('[aria-current="page"]').innerText()).toBe('收货地址');
    // On a phone the status links stay on My Orders' own tabs.
    expect(await chips.getByTestId('account-nav-1').isVisible()).toBe(false);
    // Every chip, Log out included, is on the screen without scrolling sideways.
    const chipBoxes = await chips
      .locator('.account-nav__list > li:visible')
      .evaluateAll((items) => items.map((item) => item.getBoundingClientRect().right));
    expect(chipBoxes).toHaveLength(4);
    for (const right of chipBoxes) expect(right).toBeLessThanOrEqual(PHONE.width);
    await chips.getByRole('link', { name: '我的订单' }).click();
    await page.waitForURL(/\/zh-cn\/my\/order$/);
    expect(await page.getByTestId('order-tab-count-1').innerText()).toBe('1');
  });

  it('offers Log in in the phone menu to a visitor', async () => {
    const page = await suite.open({ viewport: PHONE });
    await page.goto(`${suite.server.url}/en/faq`);
    await untilHydrated(page.getByRole('button', { name: 'Open menu' }));
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.locator('dialog.drawer').getByRole('button', { name: 'Log in' }).click();
    await page.locator('dialog.modal--account[open]').waitFor();
    expect(await page.locator('dialog.drawer').isVisible()).toBe(false);
  });
});

describe('the floating widget on a phone', () => {
  it("never covers an address's Delete or the cart's total and Check out", async () => {
    const buyer = await makeShopper(suite.server);
    expect((await buyer.call('/v1/useraddress', { method: 'POST', body: usAddress })).body.code).toBe(200);
    expect(
      (await buyer.call('/v1/useraddress', { method: 'POST', body: { ...chinaAddress, contact_name: 'Han Mei' } })).body
        .code,
    ).toBe(200);
    const sku = await prepareSku(suite.server, { stock: 20 });
    expect(
      (await buyer.call('/v1/cart/items', { method: 'POST', body: { sku_id: sku.id, quantity: 2 } })).body.code,
    ).toBe(200);
    const page = await signedInPage(buyer, { viewport: PHONE });

    await page.goto(`${suite.server.url}/en/my/address`);
    const deletes = page.getByTestId('address-delete');
    await expect.poll(() => deletes.count()).toBe(3);
    for (const button of await deletes.all()) await expectChatClearOf(page, button);

    await page.goto(`${suite.server.url}/en/cart`);
    await expectChatClearOf(page, page.locator('.checkout-summary .summary-list'));
    await expectChatClearOf(page, page.getByTestId('cart-checkout'));
  }, 60_000);
});

describe('prices in CNY', () => {
  it('read CN¥ in English and stay in yuan (元, ￥) in Chinese', async () => {
    const page = await suite.open();
    await page.goto(`${suite.server.url}/en/product/cate/1`);
    const firstPrice = page.locator('.product-grid .product-card__price').first();
    expect(await firstPrice.innerText()).toMatch(/^CN¥\d+\.\d{2}$/);
    expect(await page.locator('.currency-picker--header option[value="CNY"]').innerText()).toBe('CN¥ CNY');

    await page.goto(`${suite.server.url}/zh-cn/product/cate/1`);
    expect(await page.locator('.product-grid .product-card__price').first().innerText()).toMatch(/^\d+\.\d{2}元$/);
    expect(await page.locator('.currency-picker--header option[value="CNY"]').innerText()).toBe('￥ CNY');
  });
});

describe('contrast', () => {
  it.each(['light', 'dark'] as const)(
    'keeps the orange status label, the Default tag and the sandbox Pay button at 4.5:1 or more (%s)',
    async (mode) => {
      const { buyer, unpaid } = await buyerWithOrders();
      // The sandbox page allows no scripts at all: axe gets in only past its policy.
      const page = await signedInPage(buyer, { colorScheme: mode, bypassCSP: true });
      await suite.context.addCookies([{ name: 'color_mode', value: mode, url: suite.server.url }]);

      await page.goto(`${suite.server.url}/en/my/order`);
      await page.locator('.order-status--1').waitFor();
      expect(await contrastFailures(page)).toEqual([]);

      await page.goto(`${suite.server.url}/en/my/address`);
      await page.locator('.tag--brand').waitFor();
      expect(await contrastFailures(page)).toEqual([]);

      const started = await buyer.call('/v1/pay', { method: 'POST', body: { order_id: unpaid.id } });
      expect(started.body.code).toBe(200);
      await page.goto(suite.server.url + (started.body.data.redirect_url as string));
      await page.locator('button.pay').waitFor();
      expect(await contrastFailures(page)).toEqual([]);
    },
  );
});
