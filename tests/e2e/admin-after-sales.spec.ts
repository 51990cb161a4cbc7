import { createRequire } from 'node:module';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { afterSales, staffMembers } from '../../server/db/schema';
import { PERMISSIONS, type BuiltInRoleKey, type Permission } from '../../server/domains/staff/permissions';
import {
  afterSaleSku,
  caseRefunds,
  caseRow,
  evidencePhoto,
  orderAt,
  orderStatus,
  type OrderFixture,
  type PreparedLine,
} from '../api/after-sales-fixtures';
import { useBrowserSuite } from '../support/browser';
import { stockOf } from '../support/buyers';
import { createSignedInStaff, type TestStaff } from '../support/staff';

/**
 * The console's after-sale desk in Chromium (app/admin/routes/after-sale*.tsx): cases are
 * asked for through the buyer's API (as tests/api/after-sales-flow.test.ts does), then
 * worked in the console: the queue and its time left, the photos, a return approved,
 * received line by line and refunded, a rejection, an exchange shipped; what a read-only and
 * a Fulfilment member are offered; Chinese. Amounts are written out from the prices set
 * below. Needs `npm run build`.
 */
const suite = useBrowserSuite({ viewport: { width: 1440, height: 900 } });
const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
let owner: TestStaff;
let shirt: PreparedLine;
let mug: PreparedLine;
let keys = 0;
const key = () => `console-after-sale-${process.pid}-${Date.now()}-${++keys}`;

beforeAll(async () => {
  owner = await createSignedInStaff(suite.server, { permissions: PERMISSIONS, refundLimitMinor: null });
  shirt = await afterSaleSku(suite.server, 12_000);
  mug = await afterSaleSku(suite.server, 4_500);
});

/**
 * A signed-in console page. `everything` is a custom role with every permission and no refund
 * limit: an Owner must enrol two-step sign-in before the console lets them in.
 */
async function consoleAs(
  who: BuiltInRoleKey | 'everything' | readonly Permission[],
  locale: 'en' | 'zh-cn' = 'en',
): Promise<Page> {
  const staff = await createSignedInStaff(
    suite.server,
    who === 'everything'
      ? { permissions: PERMISSIONS, refundLimitMinor: null }
      : typeof who === 'string'
        ? { role: who }
        : { permissions: who },
  );
  if (locale !== 'en')
    await suite.server.ctx.db.update(staffMembers).set({ locale }).where(eq(staffMembers.id, staff.id));
  const page = await suite.open();
  await suite.context.addCookies(
    Object.entries(staff.cookies).map(([name, value]) => ({ name, value, url: suite.server.url })),
  );
  return page;
}

/** A buyer's request on `order`, through the buyer API; answers the case's id and lines. */
async function requestCase(
  order: OrderFixture,
  input: {
    type: 10 | 20 | 30;
    reason: string;
    lines: Array<{ item: number; quantity: number; wanted?: number }>;
    description?: string;
    photos?: string[];
  },
): Promise<{ id: number; caseNo: string; lines: Array<{ id: number; name: string }> }> {
  const created = await order.buyer.call('/v1/after-sale', {
    method: 'POST',
    body: {
      order_id: order.orderId,
      type: input.type,
      reason: input.reason,
      description: input.description ?? '',
      photos: input.photos ?? [],
      lines: input.lines.map((line) => ({
        order_item_id: order.itemIds[line.item],
        quantity: line.quantity,
        ...(line.wanted ? { wanted_sku_id: line.wanted } : {}),
      })),
      idempotency_key: key(),
    },
  });
  if (created.status !== 200) throw new Error(`after-sale refused: ${created.text}`);
  const data = created.body.data as { id: number; case_no: string; lines: Array<{ id: number; name: string }> };
  return { id: data.id, caseNo: data.case_no, lines: data.lines };
}

async function openCase(page: Page, caseId: number, caseNo: string, heading = `Case ${caseNo}`) {
  await page.goto(`${suite.server.url}/admin/after-sales/${caseId}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/** axe's serious and critical findings on the page as it is (a dialog open or not). */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axeSource });
  return page.evaluate(async () => {
    type Finding = { id: string; impact: string | null; nodes: { target: unknown }[] };
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: Finding[] }> } }).axe;
    const { violations } = await axe.run(document);
    return violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')}`);
  });
}

const statePill = (page: Page) => page.locator('.page-head .pill-row .pill').nth(1);
const notice = (page: Page) => page.locator('.notice--success');

describe('the queue and the case page', () => {
  it('lists a new return with its time left, red once overdue; the case page opens the photos zoomable', async () => {
    const order = await orderAt(suite.server, owner, { lines: [{ sku: shirt, quantity: 1 }], stage: 'received' });
    const photos = [await evidencePhoto(order.buyer), await evidencePhoto(order.buyer)];
    const fresh = await requestCase(order, {
      type: 20,
      reason: 'damaged',
      description: 'The collar is torn',
      photos,
      lines: [{ item: 0, quantity: 1 }],
    });
    const late = await orderAt(suite.server, owner, { lines: [{ sku: mug, quantity: 1 }], stage: 'received' });
    const overdue = await requestCase(late, { type: 10, reason: 'changed_mind', lines: [{ item: 0, quantity: 1 }] });
    await suite.server.ctx.db
      .update(afterSales)
      .set({ deadline: new Date(Date.now() - 3 * 60 * 60 * 1000 - 60_000) })
      .where(eq(afterSales.id, overdue.id));

    const page = await consoleAs('everything');
    await page.goto(`${suite.server.url}/admin/after-sales`);
    await page.getByRole('heading', { level: 1, name: 'After-sales' }).waitFor();
    await page.getByRole('link', { name: /^To review \d+$/ }).click();
    await page.waitForURL((url) => url.searchParams.get('queue') === 'requested');

    const row = page.locator('.data-table tbody tr', { hasText: fresh.caseNo });
    // AFTER_SALE_ANSWER_HOURS is 48: just asked, a little under two days are left.
    await expect.poll(() => row.locator('.desk-due').innerText()).toMatch(/^1 d 23 h left$/);
    expect(await row.innerText()).toContain('Return and refund');
    expect(await row.innerText()).toContain('CN¥120.00');
    const lateRow = page.locator('.data-table tbody tr', { hasText: overdue.caseNo });
    expect(await lateRow.locator('.desk-due').innerText()).toBe('overdue 3 h');
    expect(await lateRow.locator('.desk-due').getAttribute('class')).toContain('desk-due--overdue');
    // The most urgent first.
    const order_ = await page.locator('.data-table tbody tr .desk-row-link').allInnerTexts();
    expect(order_.indexOf(overdue.caseNo)).toBeLessThan(order_.indexOf(fresh.caseNo));

    // The type filter is in the URL too.
    await page.getByLabel('Type').selectOption('10');
    await page.waitForURL((url) => url.searchParams.get('type') === '10');
    await expect.poll(() => page.locator('.data-table tbody tr', { hasText: fresh.caseNo }).count()).toBe(0);
    await page.getByLabel('Type').selectOption('');
    await page.waitForURL((url) => !url.searchParams.has('type'));

    // The whole row opens the case (its case number's link covers it).
    await page.locator('.data-table tbody tr', { hasText: fresh.caseNo }).click({ position: { x: 500, y: 10 } });
    await page.getByRole('heading', { level: 1, name: `Case ${fresh.caseNo}` }).waitFor();
    expect(await page.locator('.desk-request').innerText()).toContain('The collar is torn');

    await page.getByRole('button', { name: 'Open photo 1 of 2' }).click();
    const viewer = page.getByRole('dialog', { name: 'Photo viewer' });
    await viewer.waitFor();
    expect(await viewer.locator('output').innerText()).toBe('100%');
    await viewer.getByRole('img', { name: 'Photo 1 of 2' }).click();
    await expect.poll(() => viewer.locator('output').innerText()).toBe('250%');
    await page.keyboard.press('ArrowRight');
    await viewer.getByRole('img', { name: 'Photo 2 of 2' }).waitFor();
    expect(await viewer.locator('output').innerText()).toBe('100%');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog', { name: 'Photo viewer' }).count()).toBe(0);
  }, 90_000);

  it('fits the queue and the case page at tablet width without scrolling sideways', async () => {
    const order = await orderAt(suite.server, owner, { lines: [{ sku: shirt, quantity: 1 }], stage: 'received' });
    const request = await requestCase(order, { type: 20, reason: 'size_fit', lines: [{ item: 0, quantity: 1 }] });
    const page = await consoleAs('everything');
    await page.setViewportSize({ width: 820, height: 1180 });
    await page.goto(`${suite.server.url}/admin/after-sales`);
    await page.locator('.data-table tbody tr').first().waitFor();
    const fits = () =>
      page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
    expect(await page.locator('.table-wrap').evaluate((wrap) => wrap.scrollWidth <= wrap.clientWidth)).toBe(true);
    expect(await fits()).toBe(true);
    await openCase(page, request.id, request.caseNo);
    expect(await fits()).toBe(true);
  }, 60_000);

  it('has no serious axe violation on the queue, the case page and a dialog, light and dark', async () => {
    const order = await orderAt(suite.server, owner, { lines: [{ sku: shirt, quantity: 1 }], stage: 'received' });
    const request = await requestCase(order, {
      type: 20,
      reason: 'damaged',
      photos: [await evidencePhoto(order.buyer)],
      lines: [{ item: 0, quantity: 1 }],
    });
    const page = await consoleAs('everything');
    for (const mode of ['light', 'dark']) {
      await suite.context.addCookies([{ name: 'color_mode', value: mode, url: suite.server.url }]);
      await page.goto(`${suite.server.url}/admin/after-sales`);
      await page.locator('.data-table tbody tr').first().waitFor();
      expect(await seriousViolations(page), `queue (${mode})`).toEqual([]);
      await openCase(page, request.id, request.caseNo);
      expect(await seriousViolations(page), `case (${mode})`).toEqual([]);
      await page.getByRole('button', { name: 'Approve', exact: true }).click();
      await page.getByRole('dialog').waitFor();
      expect(await seriousViolations(page), `approve dialog (${mode})`).toEqual([]);
    }
  }, 90_000);
});

describe('working cases', () => {
  it('approves a return at the estimate, receives it line by line with restock, refunds it once: completed, order refunded', async () => {
    const order = await orderAt(suite.server, owner, {
      lines: [
        { sku: shirt, quantity: 2 },
        { sku: mug, quantity: 1 },
      ],
      stage: 'received',
    });
    const request = await requestCase(order, {
      type: 20,
      reason: 'not_as_described',
      description: 'Colour is off',
      photos: [await evidencePhoto(order.buyer)],
      lines: [
        { item: 0, quantity: 1 },
        { item: 1, quantity: 1 },
      ],
    });
    const [shirtLine, mugLine] = request.lines;
    const page = await consoleAs('everything');
    await openCase(page, request.id, request.caseNo);

    // Approve: the amount starts at the estimate (120.00 + 45.00); the API's refusal shows in the dialog.
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    const approve = page.getByRole('dialog', { name: `Approve case ${request.caseNo}` });
    expect(await approve.getByLabel('Refund amount (CNY)').inputValue()).toBe('165.00');
    await approve.getByLabel('Refund amount (CNY)').fill('999.00');
    await approve.getByRole('button', { name: 'Approve' }).click();
    await expect
      .poll(() => approve.getByRole('alert').innerText())
      .toBe('At most CN¥165.00 can be refunded for this request');
    suite.forgiveHttpErrors(409);
    await approve.getByLabel('Refund amount (CNY)').fill('165.00');
    await approve.getByLabel('Message to the buyer (optional)').fill('Sorry about that. Please send both back.');
    await approve.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => notice(page).innerText()).toBe('Approved. The buyer has been emailed.');
    await expect.poll(() => statePill(page).innerText()).toBe('Awaiting parcel');
    expect(await caseRow(suite.server, request.id)).toMatchObject({ state: 'awaiting_parcel', approvedMinor: 16_500 });

    // Receive: the shirt came back fine and goes back on sale, the mug broken.
    const shirtStock = await stockOf(suite.server, shirt.skuId);
    await page.getByRole('button', { name: 'Receive parcel' }).click();
    const receive = page.getByRole('dialog', { name: `Receive the parcel of case ${request.caseNo}` });
    await receive.getByLabel(`Units of ${mugLine!.name} that arrived fine`).fill('0');
    await receive.getByLabel(`Units of ${mugLine!.name} that arrived damaged`).fill('1');
    await receive.getByLabel(`Put the fine units of ${mugLine!.name} back on sale`).uncheck();
    expect(await receive.getByLabel(`Put the fine units of ${shirtLine!.name} back on sale`).isChecked()).toBe(true);
    await receive.getByRole('button', { name: 'Mark received' }).click();
    await expect.poll(() => notice(page).innerText()).toBe('Parcel received. The buyer has been emailed.');
    await expect.poll(() => statePill(page).innerText()).toBe('Parcel received');
    expect(await stockOf(suite.server, shirt.skuId)).toBe(shirtStock + 1);
    expect(await page.locator('.desk-lines').innerText()).toContain('0 fine, 1 damaged');

    // Refund: one refund however often the button is pressed; the case completes by itself.
    await page.getByRole('button', { name: 'Refund CN¥165.00' }).click();
    const refund = page.getByRole('dialog', { name: `Refund CN¥165.00 for case ${request.caseNo}?` });
    await refund.getByRole('button', { name: 'Refund', exact: true }).dblclick();
    await expect
      .poll(() => notice(page).innerText())
      .toBe('Refund sent. The case completes when the payment provider confirms it.');
    await expect.poll(() => statePill(page).innerText(), { timeout: 20_000 }).toBe('Completed');
    expect(await caseRefunds(suite.server, request.id)).toMatchObject([{ status: 'succeeded', amountMinor: 16_500 }]);
    expect(await page.locator('.refund-list').innerText()).toContain('Refunded');

    // The order moved to "Refunded" (41), and its page lists the case.
    expect(await orderStatus(suite.server, order.orderId)).toBe(41);
    await page.getByRole('link', { name: 'View order' }).click();
    await page.getByRole('heading', { name: `Order ${order.orderNo}` }).waitFor();
    expect(await page.locator('.page-head .pill-row').innerText()).toContain('Refunded');
    const card = page.getByRole('region', { name: 'After-sale cases' });
    expect(await card.innerText()).toContain(request.caseNo);
    expect(await card.innerText()).toContain('Completed');
  }, 120_000);

  it('rejects a request with a reason code and a message, both required', async () => {
    const order = await orderAt(suite.server, owner, { lines: [{ sku: mug, quantity: 1 }], stage: 'received' });
    const request = await requestCase(order, { type: 10, reason: 'changed_mind', lines: [{ item: 0, quantity: 1 }] });
    const page = await consoleAs('everything');
    await openCase(page, request.id, request.caseNo);
    await page.getByRole('button', { name: 'Reject' }).click();
    const reject = page.getByRole('dialog', { name: `Reject case ${request.caseNo}` });
    await reject.getByRole('button', { name: 'Reject' }).click();
    await expect
      .poll(() => reject.locator('.field__error').allInnerTexts())
      .toEqual(['Choose a reason', 'Fill this in']);
    await reject.getByLabel('Reason').selectOption({ label: 'The item is not eligible' });
    await reject.getByLabel('Message to the buyer').fill('Opened cosmetics cannot be returned.');
    await reject.getByRole('button', { name: 'Reject' }).click();
    await expect.poll(() => notice(page).innerText()).toBe('Rejected. The buyer has been emailed.');
    await expect.poll(() => statePill(page).innerText()).toBe('Rejected');
    expect(await caseRow(suite.server, request.id)).toMatchObject({ state: 'rejected', rejection: 'not_eligible' });
    expect(await page.locator('.desk-request').innerText()).toContain('Opened cosmetics cannot be returned.');
    expect(await page.locator('.timeline').innerText()).toContain('Opened cosmetics cannot be returned.');
    expect(await page.locator('.page-head__actions button').count()).toBe(0);
  }, 60_000);

  it('ships an exchange: approve, receive, then the replacement with a carrier and tracking number', async () => {
    const order = await orderAt(suite.server, owner, { lines: [{ sku: shirt, quantity: 1 }], stage: 'received' });
    const options = await order.buyer.call(`/v1/after-sale/order/${order.orderId}`);
    const wanted = options.body.data.lines[0].exchange_options[0]?.sku_id as number | undefined;
    expect(wanted).toBeTypeOf('number');
    const request = await requestCase(order, {
      type: 30,
      reason: 'size_fit',
      lines: [{ item: 0, quantity: 1, wanted }],
    });
    const page = await consoleAs('everything');
    await openCase(page, request.id, request.caseNo);
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    const approve = page.getByRole('dialog', { name: `Approve case ${request.caseNo}` });
    expect(await approve.getByLabel('Refund amount (CNY)').count()).toBe(0);
    await approve.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => statePill(page).innerText()).toBe('Awaiting parcel');
    await page.getByRole('button', { name: 'Receive parcel' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Mark received' }).click();
    await expect.poll(() => statePill(page).innerText()).toBe('Parcel received');

    await page.getByRole('button', { name: 'Ship replacement' }).click();
    const ship = page.getByRole('dialog', { name: `Ship the replacement for case ${request.caseNo}` });
    await ship.getByLabel('Carrier').selectOption('shunfeng');
    await ship.getByLabel('Tracking number').fill('no');
    await ship.getByRole('button', { name: 'Ship replacement' }).click();
    await expect
      .poll(() => ship.locator('.field__error').innerText())
      .toBe('Letters, digits and dashes, 4 to 40 of them');
    await ship.getByLabel('Tracking number').fill('SF1234567890');
    await ship.getByRole('button', { name: 'Ship replacement' }).click();
    await expect.poll(() => notice(page).innerText()).toBe('Replacement shipped. The buyer has been emailed.');
    await expect.poll(() => statePill(page).innerText()).toBe('Replacement shipped');
    expect(await page.getByRole('region', { name: 'Shipping' }).innerText()).toContain('SF1234567890');
  }, 90_000);
});

describe('permissions and language', () => {
  it('shows a member with only aftersales:read the case and no moves', async () => {
    const order = await orderAt(suite.server, owner, { lines: [{ sku: mug, quantity: 1 }], stage: 'received' });
    const request = await requestCase(order, { type: 10, reason: 'changed_mind', lines: [{ item: 0, quantity: 1 }] });
    const page = await consoleAs(['aftersales:read']);
    await openCase(page, request.id, request.caseNo);
    expect(await page.locator('.console-nav .console-nav__text').allInnerTexts()).toEqual(['After-sales', 'Profile']);
    expect(await page.locator('.page-head__actions').count()).toBe(0);
    expect(await page.getByRole('button', { name: /Approve|Reject|Refund|Receive|Ship/ }).count()).toBe(0);
    expect(await page.locator('.desk-next').innerText()).toContain('Your role can see this case but not act on it.');
    // Without orders:read the order is named, not linked.
    expect(await page.getByRole('link', { name: 'View order' }).count()).toBe(0);
  }, 60_000);

  it('offers a Fulfilment member the parcel but not the refund', async () => {
    const order = await orderAt(suite.server, owner, { lines: [{ sku: shirt, quantity: 1 }], stage: 'received' });
    const request = await requestCase(order, { type: 20, reason: 'size_fit', lines: [{ item: 0, quantity: 1 }] });
    const approved = await owner.request(`/v1/admin/after-sales/${request.id}/approve`, { method: 'POST', body: {} });
    expect(approved.status).toBe(200);
    const page = await consoleAs('fulfilment');
    await openCase(page, request.id, request.caseNo);
    expect(await page.locator('.console-nav .console-nav__text').allInnerTexts()).toEqual([
      'Home',
      'Orders',
      'After-sales',
      'Profile',
    ]);
    await page.getByRole('button', { name: 'Receive parcel' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Mark received' }).click();
    await expect.poll(() => statePill(page).innerText()).toBe('Parcel received');
    expect(await page.getByRole('button', { name: /^Refund/ }).count()).toBe(0);
    expect(await page.locator('.desk-next').innerText()).toContain('A member who may refund sends it.');
  }, 60_000);

  it('speaks Chinese to a member who chose it: the queue, the case and a dialog', async () => {
    const order = await orderAt(suite.server, owner, { lines: [{ sku: mug, quantity: 1 }], stage: 'received' });
    const request = await requestCase(order, { type: 10, reason: 'arrived_late', lines: [{ item: 0, quantity: 1 }] });
    const page = await consoleAs('everything', 'zh-cn');
    await page.goto(`${suite.server.url}/admin/after-sales?queue=requested`);
    await page.getByRole('heading', { level: 1, name: '售后' }).waitFor();
    expect(await page.getByRole('navigation', { name: '队列' }).innerText()).toContain('待审核');
    const row = page.locator('.data-table tbody tr', { hasText: request.caseNo });
    await expect.poll(() => row.locator('.desk-due').innerText()).toMatch(/^剩余 1 天 23 小时$/);
    expect(await row.innerText()).toContain('仅退款');
    await openCase(page, request.id, request.caseNo, `售后单 ${request.caseNo}`);
    expect(await statePill(page).innerText()).toBe('待审核');
    // The server's own words come in the member's language too.
    expect(await page.locator('.desk-request').innerText()).toContain('送达太晚');
    await page.getByRole('button', { name: '同意' }).click();
    const approve = page.getByRole('dialog', { name: `同意售后单 ${request.caseNo}` });
    expect(await approve.getByLabel('退款金额（CNY）').inputValue()).toBe('45.00');
  }, 60_000);
});
