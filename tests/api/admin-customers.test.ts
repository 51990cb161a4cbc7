import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents, orders, users } from '../../server/db/schema';
import { loginUser } from '../../server/domains/customers/accounts.service';
import { userForGoogleClaims } from '../../server/domains/customers/google.service';
import {
  ACCOUNT_TEST_ENV,
  TEST_CAPTCHA,
  authHeaders,
  loginRequest,
  newCaptcha,
  registerUser,
} from '../support/accounts';
import { makeBuyer, makeShopper, placeOrderFor, prepareSku } from '../support/buyers';
import { decodedMail, useFakeSmtp } from '../support/mail';
import { createSignedInStaff } from '../support/staff';
import { useTestApp } from '../support/test-server';

/** Customers in the admin API: list, detail, disable, enable, sign out (docs/console.md). */
const smtp = useFakeSmtp();
const server = useTestApp(() => ({ ...ACCOUNT_TEST_ENV, SMTP_URL: smtp.url }));

async function auditOf(customerId: number) {
  return server.ctx.db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.entityId, String(customerId)));
}

async function loginByCode(email: string) {
  const sent = await server.request('/v1/user/sendCode', {
    method: 'POST',
    body: { email, dots: TEST_CAPTCHA, key: await newCaptcha(server) },
    headers: { lang: 'en' },
  });
  expect(sent.body.code).toBe(200);
  const mail = await smtp.waitFor((item) => item.to === email);
  const code = /verification code is (\d{6})/.exec(decodedMail(mail.raw))![1]!;
  return server.request('/v1/user/loginByCode', { method: 'POST', body: { email, code }, headers: { lang: 'en' } });
}

describe('GET /v1/admin/customers', () => {
  it('finds a customer by part of the email, the username or the mobile number, case ignored', async () => {
    const support = await createSignedInStaff(server, { role: 'support' });
    const tag = `srch${Date.now().toString(36)}`;
    const byEmail = await makeBuyer(server, `${tag}-mail`);
    const byName = await makeBuyer(server, `${tag}-Named`);
    await server.ctx.db.update(users).set({ mobile: '13900112233' }).where(eq(users.id, byName.id));

    const emailHits = await support.request(`/v1/admin/customers?q=${tag.toUpperCase()}-MAIL@EXAMPLE`);
    expect(emailHits.status).toBe(200);
    expect(emailHits.body.data.records.map((row: { email: string }) => row.email)).toEqual([`${tag}-mail@example.com`]);
    expect(emailHits.body.data.total).toBe(1);

    const nameHits = await support.request(`/v1/admin/customers?q=${tag}-named`);
    expect(nameHits.body.data.records).toEqual([
      {
        id: byName.id,
        email: `${tag}-Named@example.com`,
        username: `${tag}-Named`,
        mobile: '13900112233',
        status: 'active',
        created_at: expect.any(String),
        order_count: 0,
        total_spent_minor: 0,
        currency: 'CNY',
        last_order_at: null,
      },
    ]);

    const mobileHits = await support.request(`/v1/admin/customers?q=${encodeURIComponent('0011 2233')}`);
    expect(mobileHits.body.data.records.map((row: { id: number }) => row.id)).toContain(byName.id);
    expect(mobileHits.body.data.records.map((row: { id: number }) => row.id)).not.toContain(byEmail.id);

    const wildcard = await support.request(`/v1/admin/customers?q=${encodeURIComponent(`${tag}%`)}`);
    expect(wildcard.body.data.total).toBe(0);
  });

  it('counts orders and sums paid ones in the settlement currency; filters by status; pages', async () => {
    const support = await createSignedInStaff(server, { role: 'support' });
    const shopper = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 10 });
    const paid = await placeOrderFor(shopper, sku.id);
    await placeOrderFor(shopper, sku.id);
    await server.ctx.db
      .update(orders)
      .set({ payStatus: 2, status: 70, totalMinor: 12_345 })
      .where(eq(orders.id, paid.id));

    const found = await support.request(`/v1/admin/customers?q=${shopper.username}`);
    expect(found.body.data.records[0]).toMatchObject({
      id: shopper.id,
      order_count: 2,
      total_spent_minor: 12_345,
      currency: 'CNY',
      last_order_at: expect.any(String),
    });

    const tag = `page${Date.now().toString(36)}`;
    const three = [
      await makeBuyer(server, `${tag}-a`),
      await makeBuyer(server, `${tag}-b`),
      await makeBuyer(server, `${tag}-c`),
    ];
    const disabledAt = new Date();
    await server.ctx.db.update(users).set({ disabledAt }).where(eq(users.id, three[1]!.id));
    const firstPage = await support.request(`/v1/admin/customers?q=${tag}&sort=username&page_size=2`);
    expect(firstPage.body.data).toMatchObject({ total: 3, page: 1, page_size: 2 });
    expect(firstPage.body.data.records.map((row: { username: string }) => row.username)).toEqual([
      `${tag}-a`,
      `${tag}-b`,
    ]);
    const secondPage = await support.request(`/v1/admin/customers?q=${tag}&sort=username&page_size=2&page=2`);
    expect(secondPage.body.data.records.map((row: { username: string }) => row.username)).toEqual([`${tag}-c`]);
    const disabled = await support.request(`/v1/admin/customers?q=${tag}&status=disabled`);
    expect(
      disabled.body.data.records.map((row: { username: string; status: string }) => [row.username, row.status]),
    ).toEqual([[`${tag}-b`, 'disabled']]);
  });

  it('is closed to a member without customers:read', async () => {
    const fulfilment = await createSignedInStaff(server, { role: 'fulfilment' });
    const answer = await fulfilment.request('/v1/admin/customers');
    expect(answer.status).toBe(403);
  });
});

describe('GET /v1/admin/customers/:id', () => {
  it('shows the profile, orders, addresses, live sessions and the audit timeline', async () => {
    const support = await createSignedInStaff(server, { role: 'support' });
    const shopper = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 10 });
    const order = await placeOrderFor(shopper, sku.id, 2);
    await support.request(`/v1/admin/customers/${shopper.id}/sign-out`, { method: 'POST' });
    const fresh = await makeBuyer(server);

    const detail = await support.request(`/v1/admin/customers/${shopper.id}`);
    expect(detail.status).toBe(200);
    const data = detail.body.data;
    expect(data.profile).toMatchObject({
      id: shopper.id,
      email: shopper.email,
      username: shopper.username,
      status: 'active',
      has_password: false,
      disabled_at: null,
      erased_at: null,
    });
    expect(data.orders).toEqual([
      expect.objectContaining({ id: order.id, order_no: order.order_no, status: 1, pay_status: 1, item_count: 2 }),
    ]);
    expect(data.addresses).toEqual([
      expect.objectContaining({
        country_code: 'CN',
        contact_name: 'Li Lei',
        detail: '88 Tianhe Road, Building 3, Room 1201',
      }),
    ]);
    expect(data.sessions).toEqual([]);
    expect(data.identities).toEqual([]);
    expect(data.timeline).toEqual([
      expect.objectContaining({
        action: 'customer.signed_out',
        actor_type: 'staff',
        actor_id: support.id,
        actor_label: support.email,
        entity_type: 'customer',
        entity_id: String(shopper.id),
        changes: { sessions_revoked: { after: 1 } },
      }),
    ]);

    const other = await support.request(`/v1/admin/customers/${fresh.id}`);
    expect(other.body.data.sessions).toHaveLength(1);
    const missing = await support.request('/v1/admin/customers/999999999');
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe('No such customer');
  });
});

describe('disable, enable and sign out', () => {
  it('Support disables a buyer: their session stops working (302) and password and code sign-in are refused', async () => {
    const support = await createSignedInStaff(server, { role: 'support' });
    const buyer = await registerUser(server);

    const disabled = await support.request(`/v1/admin/customers/${buyer.uid}/disable`, {
      method: 'POST',
      body: { reason: 'chargeback fraud' },
    });
    expect(disabled.status).toBe(200);
    expect(disabled.body.data).toEqual({ id: buyer.uid, status: 'disabled', sessions_revoked: 1 });

    const info = await server.request('/v1/user/info', { headers: authHeaders(buyer) });
    expect(info.body.code).toBe(302);

    const byPassword = await loginRequest(server, buyer.email, buyer.password, { lang: 'en' });
    expect(byPassword.status).toBe(403);
    expect(byPassword.body).toEqual({
      code: 403,
      msg: 'This account has been disabled. Please contact the shop if you think this is a mistake',
      data: null,
    });
    const inChinese = await loginRequest(server, buyer.email, buyer.password, { lang: 'zh-cn' });
    expect(inChinese.body.msg).toBe('此账号已被停用。如有疑问，请联系本店');

    const byCode = await loginByCode(buyer.email);
    expect(byCode.body.code).toBe(403);
    expect(byCode.body.msg).toBe(
      'This account has been disabled. Please contact the shop if you think this is a mistake',
    );

    const again = await support.request(`/v1/admin/customers/${buyer.uid}/disable`, {
      method: 'POST',
      body: { reason: 'twice' },
    });
    expect(again.body.data).toEqual({ id: buyer.uid, status: 'disabled', sessions_revoked: 0 });

    const enabled = await support.request(`/v1/admin/customers/${buyer.uid}/enable`, { method: 'POST' });
    expect(enabled.body.data).toEqual({ id: buyer.uid, status: 'active', sessions_revoked: 0 });
    const afterEnable = await loginRequest(server, buyer.email, buyer.password);
    expect(afterEnable.body.code).toBe(200);

    const events = await auditOf(buyer.uid);
    expect(events.map((event) => [event.action, event.changes])).toEqual([
      [
        'customer.disabled',
        {
          disabled_at: { before: null, after: expect.any(String) },
          reason: { after: 'chargeback fraud' },
          sessions_revoked: { after: 1 },
        },
      ],
      ['customer.enabled', { disabled_at: { before: expect.any(String), after: null } }],
    ]);
    expect(JSON.stringify(events)).not.toContain(buyer.email);
  });

  it('refuses Google sign-in to a disabled account, linked or not', async () => {
    const buyer = await makeBuyer(server);
    await server.ctx.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, buyer.id));
    const claims = { sub: `google-${buyer.id}`, email: buyer.email, email_verified: true };
    await expect(userForGoogleClaims(server.ctx, claims)).rejects.toMatchObject({
      messageKey: 'accounts.login.disabled',
    });
    const [user] = await server.ctx.db.select().from(users).where(eq(users.id, buyer.id));
    await expect(loginUser(server.ctx, user!)).rejects.toMatchObject({ messageKey: 'accounts.login.disabled' });
  });

  it('signs a buyer out everywhere; they can sign in again', async () => {
    const support = await createSignedInStaff(server, { role: 'support' });
    const buyer = await registerUser(server);
    const second = await loginRequest(server, buyer.email, buyer.password);
    const answer = await support.request(`/v1/admin/customers/${buyer.uid}/sign-out`, { method: 'POST' });
    expect(answer.body.data).toEqual({ id: buyer.uid, status: 'active', sessions_revoked: 2 });
    expect((await server.request('/v1/user/info', { headers: authHeaders(buyer) })).body.code).toBe(302);
    const secondSession = { token: second.body.data.access_token, sign: second.body.data.access_sign };
    expect((await server.request('/v1/user/info', { headers: authHeaders(secondSession) })).body.code).toBe(302);
    expect((await loginRequest(server, buyer.email, buyer.password)).body.code).toBe(200);
  });

  it('Support can read and disable but not export or erase', async () => {
    const support = await createSignedInStaff(server, { role: 'support' });
    const buyer = await makeBuyer(server);
    expect((await support.request(`/v1/admin/customers/${buyer.id}`)).status).toBe(200);
    const exported = await support.request(`/v1/admin/customers/${buyer.id}/export`);
    expect(exported.status).toBe(403);
    const erased = await support.request(`/v1/admin/customers/${buyer.id}/erase`, {
      method: 'POST',
      body: { confirm_email: buyer.email },
    });
    expect(erased.status).toBe(403);
    const [row] = await server.ctx.db.select().from(users).where(eq(users.id, buyer.id));
    expect(row!.email).toBe(buyer.email);
    expect(await auditOf(buyer.id)).toEqual([]);
  });
});
