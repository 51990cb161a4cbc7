import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runShopCommand } from '../../server/cli/shop';
import { orders } from '../../server/db/schema';
import { ACCOUNT_TEST_ENV, authHeaders, registerUser } from '../support/accounts';
import { submitPasswordLogin, untilHydrated, useBrowserSuite } from '../support/browser';
import { prepareSku } from '../support/buyers';

/**
 * The buyer's whole journey in a real browser, in both languages: Buy Now, the login modal,
 * a new address, confirm, the sandbox payment page, the result page, My Orders, shipping
 * from the operator CLI, tracking, confirm receipt; a second order cancelled from its page;
 * and the cart (a visitor adds, changes and removes lines, then signs in at Checkout).
 */
const run = promisify(execFile);

// The guard answers an anonymous visit with 401 (the login modal); the browser logs it.
const suite = useBrowserSuite({
  env: ACCOUNT_TEST_ENV,
  viewport: { width: 1280, height: 900 },
  expectedProblems: /status of 401/,
});
const { open } = suite;

/** A registered buyer, signed in through the guard's (or the header's) login modal. */
async function logInThroughModal(page: Page, email: string, password: string) {
  await submitPasswordLogin(page, email, password);
  await page.locator('dialog.modal--account[open]').waitFor({ state: 'detached' });
}

/** Ships with the real CLI when the database is a PostgreSQL another process can reach; on the in-memory PGlite, the function the CLI runs. */
async function shipFromCli(orderId: number, tracking: string) {
  const args = ['orders:ship', String(orderId), '--carrier', 'shunfeng', '--tracking', tracking];
  if (suite.server.databaseUrl?.startsWith('postgres')) {
    const { stdout } = await run('npm', ['run', '--silent', 'shop', '--', ...args], {
      env: { ...process.env, DATABASE_URL: suite.server.databaseUrl, LOG_LEVEL: 'silent' },
    });
    expect(stdout).toContain('shipped with shunfeng');
    return;
  }
  const out: string[] = [];
  await runShopCommand(suite.server.ctx, args, (line) => out.push(line));
  expect(out.join('\n')).toContain('shipped with shunfeng');
}

const TEXT = {
  en: {
    detailRequired: 'Please enter the detailed address',
    incomplete: 'Please fill in the complete shipping address information',
    pendingShipment: 'Pending Shipment',
    canceled: 'Canceled Successfully',
    statusReceived: 'Received',
    ok: 'OK',
  },
  'zh-cn': {
    detailRequired: '请输入详细地址',
    incomplete: '请填写完整的收货地址信息',
    pendingShipment: '待发货',
    canceled: '取消成功',
    statusReceived: '已收货',
    ok: '确定',
  },
} as const;

async function addChinaAddress(page: Page, locale: 'en' | 'zh-cn') {
  const form = page.getByTestId('address-form');
  await form.waitFor();
  // Submit empty: every message, plus the form-level one (SPEC section 5).
  await form.getByTestId('address-save').click();
  await expect.poll(() => form.locator('[role="alert"]').first().innerText()).toBe(TEXT[locale].incomplete);
  await form.getByTestId('address-country').selectOption('CN');
  await form.getByTestId('address-province').selectOption('CN-GD');
  await form.getByTestId('address-city').selectOption('CN-GD-440100');
  // On blur: the detail message appears when the empty field loses focus.
  await form.getByTestId('address-detail').focus();
  await form.getByTestId('address-name').focus();
  await expect.poll(() => form.getByText(TEXT[locale].detailRequired).count()).toBeGreaterThan(0);
  await form.getByTestId('address-detail').fill('88 Tianhe Road, Building 3, Room 1201');
  await form.getByTestId('address-name').fill('Li Lei');
  await form.getByTestId('address-phone').fill('13812345678');
  await form.getByTestId('address-postal').fill('510000');
  await form.getByTestId('address-save').click();
  await form.waitFor({ state: 'detached' });
}

async function orderOf(userId: number, id: number) {
  const [row] = await suite.server.ctx.db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.id, id)));
  return row;
}

describe.each(['en', 'zh-cn'] as const)('checkout journey (%s)', (locale) => {
  it('buys, pays on the sandbox page, follows the order through shipping to receipt, and cancels a second order', async () => {
    const buyer = await registerUser(suite.server);
    const sku = await prepareSku(suite.server, { stock: 40 });
    const page = await open();

    // Product -> Buy Now -> the guard's login modal -> the confirm page reloads signed in.
    await page.goto(`${suite.server.url}/${locale}/product/${sku.productId}?sku=${sku.id}`);
    await page.locator('.purchase__buy').click();
    await page.waitForURL(/\/order\/confirm_order\?/);
    await logInThroughModal(page, buyer.email, buyer.password);
    await page.getByTestId('confirm-add-address').click();
    await addChinaAddress(page, locale);
    await expect.poll(() => page.getByTestId('confirm-address').innerText()).toContain('Li Lei');
    await expect.poll(() => page.getByTestId('place-order').isEnabled()).toBe(true);
    expect(await page.getByTestId('order-total').innerText()).toMatch(/\d/);

    // Notes, then a double click on Place order: one order, and the pay page.
    await page.getByTestId('order-notes').fill('Please ring twice');
    await page.getByTestId('place-order').dblclick();
    await page.waitForURL(/\/order\/pay\?order_id=\d+/);
    const orderId = Number(new URL(page.url()).searchParams.get('order_id'));
    const placed = await suite.server.ctx.db.select().from(orders).where(eq(orders.userId, buyer.uid));
    expect(placed).toHaveLength(1);
    expect(placed[0]!.notes).toBe('Please ring twice');

    // Pay on the sandbox page; back on the success page once the webhook landed.
    await page.getByTestId('pay-button').click();
    await page.waitForURL(/\/sandbox-gateway\/checkout\//);
    await page.locator('button.pay').click();
    await page.waitForURL(new RegExp(`/${locale}/result/success\\?order_id=${orderId}`));
    await expect
      .poll(() => page.getByTestId('payment-result').getAttribute('data-outcome'), { timeout: 20_000 })
      .toBe('success');

    // My Orders: under Pending Shipment, with its badge.
    await page.goto(`${suite.server.url}/${locale}/my/order?status=10`);
    expect(await page.getByTestId('order-tab-10').innerText()).toContain(TEXT[locale].pendingShipment);
    expect(await page.getByTestId('order-tab-count-10').innerText()).toBe('1');
    expect(await page.getByTestId('order-card').count()).toBe(1);
    await page.goto(`${suite.server.url}/${locale}/my/order?status=1`);
    await page.getByTestId('orders-empty').waitFor();

    // The operator ships it from the command line: Pending Delivery, with tracking events.
    await shipFromCli(orderId, 'SF1029384756');
    await page.goto(`${suite.server.url}/${locale}/my/order?status=20`);
    await page.getByTestId('order-card').first().locator('a.link-button').click();
    await page.waitForURL(new RegExp(`/my/order/${orderId}$`));
    expect(await page.getByTestId('detail-shipment').innerText()).toContain('SF1029384756');
    expect(await page.getByTestId('tracking-events').locator('li').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('detail-notes').innerText()).toBe('Please ring twice');

    // Confirm receipt (asks first).
    await page.getByTestId('order-confirm').click();
    await page.locator('dialog.modal--confirm[open]').getByRole('button', { name: TEXT[locale].ok }).click();
    await expect.poll(() => page.getByTestId('detail-status').innerText()).toBe(TEXT[locale].statusReceived);
    expect((await orderOf(buyer.uid, orderId))?.status).toBe(30);

    // A second order, cancelled from its detail page.
    await page.goto(`${suite.server.url}/${locale}/order/confirm_order?sku_id=${sku.id}&quantity=1`);
    await page.getByTestId('place-order').click();
    await page.waitForURL(/\/order\/pay\?order_id=\d+/);
    const secondId = Number(new URL(page.url()).searchParams.get('order_id'));
    expect(secondId).not.toBe(orderId);
    await page.goto(`${suite.server.url}/${locale}/my/order/${secondId}`);
    await untilHydrated(page.getByTestId('order-cancel'));
    await page.getByTestId('order-cancel').click();
    await page.locator('dialog.modal--confirm[open]').getByRole('button', { name: TEXT[locale].ok }).click();
    await page.locator('.toast', { hasText: TEXT[locale].canceled }).waitFor();
    await expect.poll(async () => (await orderOf(buyer.uid, secondId))?.status).toBe(60);
    await expect.poll(() => page.getByTestId('order-cancel').count()).toBe(0);
  }, 120_000);
});

describe('cart', () => {
  /** The cart page's line of a product. */
  const lineOf = (page: Page, productId: number) =>
    page.getByTestId('cart-line').filter({ has: page.locator(`a.line__name[href$="/product/${productId}"]`) });
  const headerCount = (page: Page) => page.getByTestId('header-cart-count').innerText();

  async function addAsVisitor(page: Page, sku: { id: number; productId: number }, expectedCount: string) {
    await page.goto(`${suite.server.url}/en/product/${sku.productId}?sku=${sku.id}`);
    await untilHydrated(page.getByTestId('add-to-cart'));
    await page.getByTestId('add-to-cart').click();
    await expect.poll(() => headerCount(page)).toBe(expectedCount);
  }

  it('lets a visitor change and remove lines without signing in, asks for the login at Checkout, then confirms the merged cart', async () => {
    const buyer = await registerUser(suite.server);
    const kept = await prepareSku(suite.server, { stock: 30 });
    const dropped = await prepareSku(suite.server, { stock: 30 });
    const saved = await prepareSku(suite.server, { stock: 30 });
    // The account already holds a line from an earlier visit.
    const earlier = await suite.server.request('/v1/cart/items', {
      method: 'POST',
      body: { sku_id: saved.id, quantity: 1 },
      headers: authHeaders(buyer),
    });
    expect(earlier.status).toBe(200);
    const page = await open();

    await addAsVisitor(page, kept, '1');
    await addAsVisitor(page, dropped, '2');

    // No login wall: the visitor's own cart, with its lines.
    await page.getByTestId('header-cart').click();
    await page.waitForURL(/\/en\/cart$/);
    await expect.poll(() => page.getByTestId('cart-line').count()).toBe(2);
    expect(await page.locator('dialog.modal--account[open]').count()).toBe(0);

    await lineOf(page, kept.productId).getByRole('button', { name: 'Increase quantity' }).click();
    await expect.poll(() => headerCount(page)).toBe('3');
    await lineOf(page, dropped.productId).locator('.line__remove').click();
    await expect.poll(() => page.getByTestId('cart-line').count()).toBe(1);
    await expect.poll(() => headerCount(page)).toBe('2');
    await page.reload();
    expect(await lineOf(page, kept.productId).getByTestId('line-quantity').inputValue()).toBe('2');

    // Checkout opens the (closable) login modal over the cart; after the login, on to confirm.
    await page.getByTestId('cart-checkout').click();
    await page.locator('dialog.modal--account[open]:not(.modal--guard)').waitFor();
    await logInThroughModal(page, buyer.email, buyer.password);
    await page.waitForURL(/\/en\/order\/confirm_order\?from=cart$/);
    const lines = page.getByTestId('confirm-line');
    await expect.poll(() => lines.count()).toBe(2);
    const texts = await lines.allInnerTexts();
    expect(texts.filter((text) => text.includes('× 2'))).toHaveLength(1);
    expect(texts.filter((text) => text.includes('× 1'))).toHaveLength(1);
    await expect.poll(() => headerCount(page)).toBe('3');

    await page.getByTestId('confirm-add-address').click();
    await addChinaAddress(page, 'en');
    await expect.poll(() => page.getByTestId('place-order').isEnabled()).toBe(true);
    await page.getByTestId('place-order').click();
    await page.waitForURL(/\/order\/pay\?order_id=\d+/);
    // The ordered lines left the cart.
    await expect.poll(() => page.locator('[data-testid="header-cart-count"]').count()).toBe(0);
    await page.goto(`${suite.server.url}/en/cart`);
    await page.getByTestId('cart-empty').waitFor();
  }, 90_000);

  it('keeps a visitor who closes the login modal on the cart, also when they log in later from the header', async () => {
    const buyer = await registerUser(suite.server);
    const sku = await prepareSku(suite.server, { stock: 30 });
    const page = await open();
    await addAsVisitor(page, sku, '1');
    await page.goto(`${suite.server.url}/zh-cn/cart`);
    await page.getByTestId('cart-checkout').click();
    const modal = page.locator('dialog.modal--account[open]');
    await modal.getByRole('button', { name: '关闭' }).click();
    await modal.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: '登录' }).click();
    await logInThroughModal(page, buyer.email, buyer.password);
    await expect
      .poll(() => page.getByRole('button', { name: `${buyer.username} 我的账户`, exact: true }).count())
      .toBe(1);
    // A navigation to checkout would start with the name; give it time to show.
    const wentOn = await page.waitForURL(/\/order\/confirm_order/, { timeout: 3_000 }).then(
      () => true,
      () => false,
    );
    expect(wentOn).toBe(false);
    expect(new URL(page.url()).pathname).toBe('/zh-cn/cart');
    expect(await page.getByTestId('cart-line').count()).toBe(1);
  }, 120_000);
});

describe('address dialog', () => {
  it.each([
    [1280, 900],
    [390, 844],
  ])('lines up Contact person and Contact number at %i px wide, with and without an error', async (width, height) => {
    const buyer = await registerUser(suite.server);
    const page = await open({ viewport: { width, height } });
    await suite.context.addCookies([{ name: 'access_token', value: buyer.token, url: suite.server.url }]);
    await page.goto(`${suite.server.url}/en/my/address`);
    await untilHydrated(page.getByTestId('address-add'));
    await page.getByTestId('address-add').click();
    const form = page.getByTestId('address-form');
    await form.waitFor();
    const name = form.getByTestId('address-name');
    const phone = form.getByTestId('address-phone');
    // The dialog slides in: the two boxes are read once it has settled (two reads at different
    // frames of the animation differ by a fraction of a pixel), then compared exactly.
    const expectLinedUp = async () => {
      const boxes = () => Promise.all([name.boundingBox(), phone.boundingBox()]);
      const settled = async () => {
        const before = JSON.stringify(await boxes());
        await page.waitForTimeout(100);
        return before === JSON.stringify(await boxes());
      };
      await expect.poll(settled).toBe(true);
      const [nameBox, phoneBox] = await boxes();
      expect(nameBox!.y).toBe(phoneBox!.y);
      expect(nameBox!.height).toBe(phoneBox!.height);
      expect(nameBox!.x).toBeLessThan(phoneBox!.x);
    };
    // The number has a hint under it and the name has none.
    await expectLinedUp();
    // Only the name has an error line.
    await phone.fill('13812345678');
    await form.getByTestId('address-save').click();
    await expect.poll(() => form.getByText('Please enter your name').count()).toBe(1);
    await expectLinedUp();
  });
});
