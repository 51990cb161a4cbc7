import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runShopCommand } from '../../server/cli/shop';
import { paidSandboxOrder } from '../api/admin-orders-fixtures';
import { useBrowserSuite } from '../support/browser';
import { makeBuyer } from '../support/buyers';
import { decodedMail, useFakeSmtp } from '../support/mail';

/**
 * The console's journey (issue 14): the first-start setup link makes the Owner, who sets up
 * two-step sign-in and invites a Fulfilment member by email; the member ships an order and
 * has no way to refund it (no button, and the API refuses); the Owner refunds part of it; the
 * buyer sees the refund on their order and gets the email; the audit log shows all of it.
 * This file's shop starts with no staff account. Needs `npm run build`.
 */
const smtp = useFakeSmtp();
const suite = useBrowserSuite({ env: () => ({ SMTP_URL: smtp.url }), viewport: { width: 1440, height: 900 } });

const OWNER = { email: 'journey-owner@shop.example', name: 'Jo Owner', password: 'Journey-owner-2026' };
const PACKER = { email: 'journey-packer@shop.example', name: 'Pat Packer', password: 'Journey-packer-2026' };

async function fill(page: Page, label: string, value: string) {
  await page.getByLabel(label, { exact: true }).fill(value);
}

describe('the console journey', () => {
  it('setup link -> Owner with two-step -> Fulfilment ships, cannot refund -> Owner refunds part -> buyer and audit see it', async () => {
    const ctx = suite.server.ctx;

    // 1. The setup link, as `npm run shop -- staff:create-owner` prints it.
    const printed: string[] = [];
    await runShopCommand(ctx, ['staff:create-owner', '--email', OWNER.email], (line) => printed.push(line));
    const setupToken = /\/admin\/setup#([A-Za-z0-9_-]+)/.exec(printed.join('\n'))?.[1];
    expect(setupToken).toBeDefined();

    const owner = await suite.open();
    await owner.goto(`${suite.server.url}/admin/setup#${setupToken}`);
    await expect.poll(() => owner.getByLabel('Email', { exact: true }).inputValue()).toBe(OWNER.email);
    await fill(owner, 'Name', OWNER.name);
    await fill(owner, 'New password', OWNER.password);
    await owner.getByRole('button', { name: 'Create the Owner' }).click();

    // 2. The Owner must set up two-step sign-in before anything else.
    await owner.waitForURL(/\/admin\/two-step$/);
    const secret = await owner.getByLabel('Secret').inputValue();
    const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
    await fill(owner, 'Authenticator code', totp.generate());
    await owner.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
    const codes = owner.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem');
    await expect.poll(() => codes.count()).toBe(10);
    await owner.getByRole('button', { name: 'I have saved them' }).click();
    await owner.waitForURL(`${suite.server.url}/admin`);
    await expect.poll(() => owner.getByRole('heading', { level: 1 }).innerText()).toBe(`Hello, ${OWNER.name}`);

    // 3. The Owner invites a Fulfilment member; the link arrives by email.
    await owner.getByRole('link', { name: 'Staff' }).click();
    await owner.getByRole('button', { name: 'Invite a member' }).click();
    await fill(owner, 'Email', PACKER.email);
    await owner.getByRole('checkbox', { name: 'Fulfilment' }).check();
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    await expect.poll(() => owner.getByRole('status').innerText()).toBe(`Invitation sent to ${PACKER.email}.`);
    const invitation = decodedMail((await smtp.waitFor((mail) => mail.to === PACKER.email, 10_000)).raw);
    const invitationToken = /\/admin\/invitation#([A-Za-z0-9_-]{43})/.exec(invitation)?.[1];
    expect(invitationToken).toBeDefined();

    // 4. The member joins, sees only what Fulfilment may use, ships, and cannot refund.
    const buyer = await makeBuyer(suite.server);
    const { orderId } = await paidSandboxOrder(ctx, buyer.id, 12_000);
    const packer = await suite.open();
    await packer.goto(`${suite.server.url}/admin/invitation#${invitationToken}`);
    await expect.poll(() => packer.locator('.console-auth p.muted').innerText()).toContain(PACKER.email);
    await fill(packer, 'Name', PACKER.name);
    await fill(packer, 'New password', PACKER.password);
    await packer.getByRole('button', { name: 'Join' }).click();
    await packer.waitForURL(`${suite.server.url}/admin`);
    await expect
      .poll(() => packer.locator('.console-nav .console-nav__text').allInnerTexts())
      .toEqual(['Home', 'Orders', 'After-sales', 'Profile']);
    await packer.goto(`${suite.server.url}/admin/orders/${orderId}`);
    await packer.getByRole('heading', { name: /^Order / }).waitFor();
    expect(await packer.getByRole('button', { name: 'Refund' }).count()).toBe(0);
    const refused = await packer.evaluate(async (id) => {
      const csrf = decodeURIComponent(/(?:^|; )csrf_token=([^;]+)/.exec(document.cookie)?.[1] ?? '');
      const response = await fetch(`/v1/admin/orders/${id}/refunds`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf, lang: 'en' },
        body: JSON.stringify({ amount_minor: 100, reason: 'not allowed', idempotency_key: 'journey-refused-0001' }),
      });
      return response.status;
    }, orderId);
    expect(refused).toBe(403);
    suite.forgiveHttpErrors(403);
    await fill(packer, 'Tracking number', 'JOURNEY-0001-TRACK');
    await packer.getByRole('button', { name: 'Ship the order' }).click();
    await expect.poll(() => packer.getByRole('status').innerText()).toBe('Shipped. The buyer has been emailed.');

    // 5. The Owner refunds 12.00 of the 120.00 order.
    await owner.goto(`${suite.server.url}/admin/orders/${orderId}`);
    await expect.poll(() => owner.locator('.pill-row').innerText()).toContain('Shipped');
    await fill(owner, 'Amount (CNY)', '12.00');
    await owner.getByLabel('Reason', { exact: true }).first().fill('Box arrived dented');
    await owner.getByRole('button', { name: 'Refund', exact: true }).click();
    const dialog = owner.locator('dialog[open]');
    expect(await dialog.getByRole('heading').innerText()).toContain('CN¥12.00');
    await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
    await expect.poll(() => owner.getByRole('status').innerText()).toBe('Refunded. The buyer has been emailed.');

    // 6. The buyer sees it on their order, and gets the email.
    await expect
      .poll(
        async () =>
          (await buyer.call(`/v1/order/${orderId}`)).body.data.refunds?.map(
            (refund: { amount: { amount_minor: number } }) => refund.amount.amount_minor,
          ),
        { timeout: 15_000 },
      )
      .toEqual([1_200]);
    // On their order page, signed in with their own session (a fresh browser context).
    const buyerPage = await suite.open();
    await suite.context.addCookies([{ name: 'access_token', value: buyer.headers.token, url: suite.server.url }]);
    await buyerPage.goto(`${suite.server.url}/en/my/order/${orderId}`);
    await expect.poll(() => buyerPage.getByTestId('detail-refunds').innerText()).toMatch(/^Refunded CN¥12\.00 on /);
    const refundMail = decodedMail(
      (await smtp.waitFor((mail) => mail.to === buyer.email && decodedMail(mail.raw).includes('refunded'), 15_000)).raw,
    );
    expect(refundMail).toContain('We have refunded CN¥12.00');

    // 7. The audit log shows who did each of it.
    await owner.goto(`${suite.server.url}/admin/audit`);
    await owner.locator('.audit-row').first().waitFor();
    const log = (await owner.locator('.audit-row').allInnerTexts()).join('\n');
    for (const action of [
      'staff.setup_link_issued',
      'staff.joined',
      'staff.two_step_enabled',
      'staff.invited',
      'order.shipped',
      'refund.requested',
    ]) {
      expect(log, action).toContain(action);
    }
    expect(log).toContain(PACKER.email);
    expect(log).toContain(OWNER.email);
  }, 120_000);
});
