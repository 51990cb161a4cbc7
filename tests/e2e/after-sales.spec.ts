import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { afterSales } from '../../server/db/schema';
import { PERMISSIONS } from '../../server/domains/staff/permissions';
import { ACCOUNT_TEST_ENV } from '../support/accounts';
import { untilHydrated, useBrowserSuite } from '../support/browser';
import { germanAddress, makeBuyer, type Buyer } from '../support/buyers';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { afterSaleSku, caseRow, orderAt, RED_PIXEL_PNG, type PreparedLine } from '../api/after-sales-fixtures';

/**
 * The buyer's after-sale pages in a real browser (ADR 0130): a return refunded (English), an
 * exchange confirmed (Chinese), a rejection with its reason and the shop's message, then an
 * appeal (Chinese), and a request cancelled from its page, which no other buyer can open. The
 * shop's side moves through the console's API as its Owner, like tests/api/after-sales-flow.test.ts.
 * Needs `npm run build`.
 */
const suite = useBrowserSuite({ env: ACCOUNT_TEST_ENV, viewport: { width: 1280, height: 900 } });
let owner: TestStaff;
let shirt: PreparedLine;
let mug: PreparedLine;
let keys = 0;
const key = () => `after-sale-e2e-${process.pid}-${Date.now()}-${++keys}`;

beforeAll(async () => {
  owner = await createSignedInStaff(suite.server, { permissions: PERMISSIONS, refundLimitMinor: null });
  shirt = await afterSaleSku(suite.server, 12_000);
  mug = await afterSaleSku(suite.server, 4_500);
});

/** A fresh page signed in as `buyer` (their session's cookie). */
async function pageOf(buyer: Buyer): Promise<Page> {
  const page = await suite.open();
  await suite.context.addCookies([{ name: 'access_token', value: buyer.headers.token, url: suite.server.url }]);
  return page;
}

/** The owner's move on a case through the console's API. */
async function shop(caseId: number, move: string, body: Record<string, unknown> = {}) {
  const answer = await owner.request(`/v1/admin/after-sales/${caseId}/${move}`, { method: 'POST', body });
  expect(answer.status, `${move}: ${answer.text}`).toBe(200);
  return answer.body.data;
}

async function settled(caseId: number, state: string) {
  await expect.poll(async () => (await caseRow(suite.server, caseId)).state, { timeout: 15_000 }).toBe(state);
}

const caseIdOf = (page: Page) => Number(/\/my\/after-sale\/(\d+)$/.exec(page.url())?.[1]);
const stateText = (page: Page) => page.getByTestId('after-sale-state').innerText();

describe('after-sales in the browser', () => {
  it('English: a received order is returned and refunded; one photo upload fails once and is retried', async () => {
    const order = await orderAt(suite.server, owner, {
      lines: [
        { sku: shirt, quantity: 2 },
        { sku: mug, quantity: 1 },
      ],
      stage: 'received',
      address: germanAddress,
    });
    const page = await pageOf(order.buyer);
    await page.goto(`${suite.server.url}/en/my/order/${order.orderId}`);
    await page.getByTestId('order-after-sale').click();
    await page.waitForURL(/\/en\/my\/order\/\d+\/after-sale$/);
    await expect.poll(() => page.title()).toMatch(/^Request after-sale service \| /);

    await page.getByRole('radio', { name: /^Return and refund/ }).check();
    const line = page.getByTestId('after-sale-line').first();
    await line.getByRole('checkbox').check();
    const quantity = line.getByRole('spinbutton', { name: 'Quantity' });
    expect(await quantity.inputValue()).toBe('1');
    await line.getByRole('button', { name: 'Increase quantity' }).click();
    expect(await quantity.inputValue()).toBe('2');
    // The estimate follows the choice: two shirts, then one.
    await expect.poll(() => page.getByTestId('after-sale-estimate').innerText()).toContain('CN¥240.00');
    await line.getByRole('button', { name: 'Decrease quantity' }).click();
    await expect.poll(() => page.getByTestId('after-sale-estimate').innerText()).toContain('CN¥120.00');

    await page.getByLabel('Reason').selectOption({ label: 'Arrived damaged' });
    expect(await page.locator('.form-field__label', { hasText: 'Photos' }).innerText()).toContain('(required)');
    await page.getByLabel('Description').fill('The collar is torn.');

    // The first upload never reaches the shop (the network drops it); the others go through.
    let dropped = 0;
    await page.route('**/v1/upload?purpose=evidence', async (route) => {
      if (dropped === 0) {
        dropped += 1;
        await route.abort('failed');
      } else {
        await route.continue();
      }
    });
    await page
      .locator('.image-uploads input[type="file"]')
      .setInputFiles([1, 2, 3].map((n) => ({ name: `damage-${n}.png`, mimeType: 'image/png', buffer: RED_PIXEL_PNG })));
    const items = page.getByTestId('upload-item');
    const states = () => items.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-state')).sort());
    await expect.poll(states).toEqual(['fail', 'success', 'success']);
    await page.getByRole('button', { name: 'Retry upload' }).click();
    await expect.poll(states).toEqual(['success', 'success', 'success']);
    // The dropped request is the one console error this test expects.
    suite.problems.splice(0, suite.problems.length, ...suite.problems.filter((text) => !/ERR_FAILED/.test(text)));

    // The same form sent twice at once, then once more by the button: one case.
    const form = page.getByTestId('after-sale-form');
    const repeated = await form.evaluate(async (element) => {
      const body = new URLSearchParams();
      for (const [name, value] of new FormData(element as HTMLFormElement))
        if (typeof value === 'string') body.append(name, value);
      const send = () => fetch(location.href, { method: 'POST', body }).then((response) => response.url);
      return Promise.all([send(), send()]);
    });
    expect(repeated[0]).toMatch(/\/en\/my\/after-sale\/\d+$/);
    expect(repeated[1]).toBe(repeated[0]);
    await page.getByTestId('after-sale-submit').click();
    await page.waitForURL(/\/en\/my\/after-sale\/\d+$/);
    expect(page.url()).toBe(repeated[0]);
    const caseId = caseIdOf(page);
    const cases = await suite.server.ctx.db
      .select({ id: afterSales.id })
      .from(afterSales)
      .where(eq(afterSales.orderId, order.orderId));
    expect(cases.map((row) => row.id)).toEqual([caseId]);

    expect(await stateText(page)).toBe('Waiting for the shop to review');
    expect(await page.getByTestId('after-sale-status').innerText()).toBe('Pending');
    await expect.poll(() => page.getByTestId('after-sale-photo').count()).toBe(3);
    await page.getByTestId('after-sale-photo').first().click();
    await page.locator('dialog.viewer[open]').waitFor();
    await page.keyboard.press('Escape');
    await page.locator('dialog.viewer[open]').waitFor({ state: 'detached' });

    // The shop approves: the buyer sees where to send the parcel and enters its tracking.
    await shop(caseId, 'approve', { message: 'Sorry about that. Please send it back.' });
    await page.reload();
    expect(await stateText(page)).toBe('Approved, waiting for your parcel');
    expect(await page.getByTestId('after-sale-return-address').innerText()).toContain('Hangzhou');
    expect(await page.getByTestId('after-sale-shop-message').innerText()).toContain(
      'Sorry about that. Please send it back.',
    );
    const tracking = page.getByTestId('after-sale-tracking-form');
    await tracking.getByLabel('Carrier').fill('DHL');
    await tracking.getByLabel('Tracking number').fill('JD0146000012345');
    await tracking.getByRole('button', { name: 'Save tracking number' }).click();
    await expect.poll(() => page.getByTestId('after-sale-answer').innerText()).toBe('Tracking number saved');
    await expect.poll(() => stateText(page)).toBe('Parcel on its way to the shop');
    expect(await page.getByTestId('after-sale-return-tracking').innerText()).toContain('JD0146000012345');

    // The shop receives it and refunds; the refund settles through the outbox.
    const lineId = (await order.buyer.call(`/v1/after-sale/${caseId}`)).body.data.lines[0].id as number;
    await shop(caseId, 'receive', {
      lines: [{ line_id: lineId, accepted_quantity: 1, damaged_quantity: 0, restock: true }],
    });
    await shop(caseId, 'refund', { idempotency_key: key() });
    await settled(caseId, 'completed');
    await page.reload();
    expect(await stateText(page)).toBe('Completed');
    expect(await page.getByTestId('after-sale-status').innerText()).toBe('Completed');
    expect(await page.getByTestId('after-sale-refunds').innerText()).toMatch(/^Refunded CN¥120\.00 on /);
    const timeline = await page.getByTestId('after-sale-timeline').locator('li').allInnerTexts();
    expect(timeline.map((entry) => entry.split('\n')[0])).toEqual([
      'Request sent',
      'Request approved',
      'Parcel sent back',
      'Parcel received and checked',
      'Refund sent to the payment provider',
      'Refund completed',
    ]);

    // The order shows status 41 and lists the request; the After-Sales tab lists it too.
    await page.getByRole('link', { name: `Order ${order.orderNo}` }).click();
    await page.waitForURL(new RegExp(`/en/my/order/${order.orderId}$`));
    expect(await page.getByTestId('detail-status').innerText()).toBe('Refunded');
    expect(await page.getByTestId('order-after-sales').innerText()).toContain(`${order.orderNo}-1`);
    await page.goto(`${suite.server.url}/en/my/order?status=after_sales`);
    const card = page.getByTestId('after-sale-card');
    expect(await card.count()).toBe(1);
    expect(await card.getAttribute('data-case-no')).toBe(`${order.orderNo}-1`);
    const cardText = await card.innerText();
    for (const text of ['Completed', 'Return and refund', `Order ${order.orderNo}`, 'CN¥120.00'])
      expect(cardText).toContain(text);
  }, 120_000);

  it('Chinese: an exchange for another option ends with the replacement tracked and confirmed', async () => {
    const order = await orderAt(suite.server, owner, { lines: [{ sku: shirt, quantity: 1 }], stage: 'received' });
    const page = await pageOf(order.buyer);
    await page.goto(`${suite.server.url}/zh-cn/my/order/${order.orderId}`);
    await page.getByTestId('order-after-sale').click();
    await page.waitForURL(/\/zh-cn\/my\/order\/\d+\/after-sale$/);
    await page.getByRole('radio', { name: /^换货/ }).check();
    // The order's only line is chosen already; the exchange asks for the option wanted.
    const line = page.getByTestId('after-sale-line');
    expect(await line.getByRole('checkbox').isChecked()).toBe(true);
    const wanted = line.getByLabel('换成');
    const choices = await wanted.locator('option:not([disabled])').allInnerTexts();
    expect(choices.length).toBeGreaterThan(0);
    await wanted.selectOption({ label: choices[0]! });
    expect(await page.getByTestId('after-sale-estimate').innerText()).toContain('换货不退款');
    await page.getByLabel('原因').selectOption({ label: '尺码不合适' });
    await page.getByTestId('after-sale-submit').click();
    await page.waitForURL(/\/zh-cn\/my\/after-sale\/\d+$/);
    const caseId = caseIdOf(page);
    expect(await stateText(page)).toBe('等待商家审核');
    expect(await page.getByTestId('after-sale-case').innerText()).toContain(`换成 ${choices[0]}`);

    await shop(caseId, 'approve');
    await page.reload();
    const tracking = page.getByTestId('after-sale-tracking-form');
    await tracking.getByLabel('快递公司').fill('顺丰');
    await tracking.getByLabel('快递单号').fill('SF0099887766');
    await tracking.getByRole('button', { name: '保存快递单号' }).click();
    await expect.poll(() => stateText(page)).toBe('退货运输中');

    const lineId = (await order.buyer.call(`/v1/after-sale/${caseId}`)).body.data.lines[0].id as number;
    await shop(caseId, 'receive', {
      lines: [{ line_id: lineId, accepted_quantity: 1, damaged_quantity: 0, restock: true }],
    });
    await shop(caseId, 'ship-exchange', { carrier_code: 'shunfeng', tracking_no: 'SF1234567890' });
    await page.reload();
    expect(await stateText(page)).toBe('换货已发出');
    const replacement = page.getByTestId('after-sale-exchange');
    const link = replacement.getByRole('link', { name: 'SF1234567890' });
    expect(await link.getAttribute('href')).toMatch(/^https?:\/\//);

    await page.getByTestId('after-sale-confirm').click();
    const dialog = page.locator('dialog.modal--confirm[open]');
    expect(await dialog.getByRole('heading').innerText()).toBe('确认已收到换货？');
    await dialog.getByRole('button', { name: '确定' }).click();
    await expect.poll(() => stateText(page)).toBe('已完成');
    expect(await page.getByTestId('after-sale-status').innerText()).toBe('已完成');
    expect(await page.getByTestId('after-sale-answer').innerText()).toBe('感谢确认，换货已完成');
    expect(await page.getByTestId('after-sale-confirm').count()).toBe(0);
    // The replacement's tracking stays on the page.
    expect(await page.getByTestId('after-sale-exchange').innerText()).toContain('SF1234567890');
  }, 120_000);

  it('Chinese: a rejected refund shows the reason and the shop message, the order 42; one appeal reopens it', async () => {
    const order = await orderAt(suite.server, owner, { lines: [{ sku: mug, quantity: 1 }], stage: 'received' });
    const created = await order.buyer.call('/v1/after-sale', {
      method: 'POST',
      body: {
        order_id: order.orderId,
        type: 10,
        reason: 'changed_mind',
        lines: [{ order_item_id: order.itemIds[0], quantity: 1 }],
        idempotency_key: key(),
      },
    });
    expect(created.status).toBe(200);
    const caseId = created.body.data.id as number;
    await shop(caseId, 'reject', { rejection: 'used_or_damaged_by_buyer', message: 'The mug has been used.' });

    const page = await pageOf(order.buyer);
    await page.goto(`${suite.server.url}/zh-cn/my/after-sale/${caseId}`);
    expect(await stateText(page)).toBe('已拒绝');
    const rejection = page.getByTestId('after-sale-rejection');
    expect(await rejection.innerText()).toContain('商品签收后被使用或损坏');
    expect(await page.getByTestId('after-sale-shop-message').innerText()).toContain('The mug has been used.');
    expect(await page.getByTestId('after-sale-cancel').count()).toBe(0);

    await page.goto(`${suite.server.url}/zh-cn/my/order/${order.orderId}`);
    expect(await page.getByTestId('detail-status').innerText()).toBe('退款被拒绝');
    expect(await page.getByTestId('order-after-sales').innerText()).toContain('已拒绝');

    await page.getByTestId('order-after-sales').getByRole('link').click();
    await page.waitForURL(new RegExp(`/zh-cn/my/after-sale/${caseId}$`));
    const appeal = page.getByTestId('after-sale-appeal-form');
    // Sent empty, the message is refused in the buyer's language (the browser's own check is off for this).
    await appeal.locator('textarea').evaluate((node) => node.removeAttribute('required'));
    await appeal.getByRole('button', { name: '提交申诉' }).click();
    await expect.poll(() => appeal.locator('[role="alert"]').first().innerText()).toBe('请说明需要重新审核的理由');
    await appeal.getByLabel('申诉理由').fill('It was never used, see the box.');
    await appeal.getByRole('button', { name: '提交申诉' }).click();
    await expect.poll(() => stateText(page)).toBe('等待商家审核');
    expect(await page.getByTestId('after-sale-answer').innerText()).toBe('申诉已提交');
    expect(await page.getByTestId('after-sale-timeline').innerText()).toContain('It was never used, see the box.');
  }, 120_000);

  it('English: a request is cancelled after the confirmation, and no other buyer can open it', async () => {
    const order = await orderAt(suite.server, owner, { lines: [{ sku: mug, quantity: 1 }], stage: 'received' });
    const created = await order.buyer.call('/v1/after-sale', {
      method: 'POST',
      body: {
        order_id: order.orderId,
        type: 10,
        reason: 'changed_mind',
        lines: [{ order_item_id: order.itemIds[0], quantity: 1 }],
        idempotency_key: key(),
      },
    });
    const caseId = created.body.data.id as number;
    const page = await pageOf(order.buyer);
    await page.goto(`${suite.server.url}/en/my/order/${order.orderId}`);
    // Every unit is in the open request: nothing left to ask for.
    expect(await page.getByTestId('order-after-sale').count()).toBe(0);
    await page.goto(`${suite.server.url}/en/my/after-sale/${caseId}`);
    await untilHydrated(page.getByTestId('after-sale-cancel'));
    await page.getByTestId('after-sale-cancel').click();
    const dialog = page.locator('dialog.modal--confirm[open]');
    expect(await dialog.getByRole('heading').innerText()).toBe('Cancel this request?');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect.poll(() => stateText(page)).toBe('Cancelled');
    expect(await page.getByTestId('after-sale-answer').innerText()).toBe('Request cancelled');
    expect(await page.getByTestId('after-sale-cancel').count()).toBe(0);
    await page.goto(`${suite.server.url}/en/my/order/${order.orderId}`);
    expect(await page.getByTestId('order-after-sale').count()).toBe(1);

    const other = await pageOf(await makeBuyer(suite.server));
    const refused = await other.goto(`${suite.server.url}/en/my/after-sale/${caseId}`);
    expect(refused?.status()).toBe(404);
    const form = await other.goto(`${suite.server.url}/en/my/order/${order.orderId}/after-sale`);
    expect(form?.status()).toBe(404);
    suite.forgiveHttpErrors(404);
  }, 120_000);
});
