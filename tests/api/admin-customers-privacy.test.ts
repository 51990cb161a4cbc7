import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents, orders, sessions, userAddresses, userIdentities, users } from '../../server/db/schema';
import { blobStoreOf } from '../../server/domains/media/blob-stores';
import { ACCOUNT_TEST_ENV, authHeaders, registerRequest, registerUser } from '../support/accounts';
import { prepareSku } from '../support/buyers';
import { createSignedInStaff } from '../support/staff';
import { useTestApp } from '../support/test-server';

/** A customer's data export and erasure (docs/console.md, ADR 0102). */
const server = useTestApp(() => ACCOUNT_TEST_ENV);

/** An Owner must enrol two-step sign-in first; a custom role holds the customer permissions without it. */
const DATA_OFFICER = {
  permissions: ['customers:read', 'customers:write', 'customers:export', 'customers:erase'],
} as const;

const ADDRESS = {
  country_code: 'CN',
  province_id: 'CN-GD',
  city_id: 'CN-GD-440100',
  detail: '88 Tianhe Road, Building 3, Room 1201',
  postal_code: '510000',
  contact_name: 'Li Lei',
  contact_phone: '13812345678',
};

/** Long enough that no other field of an export can contain it by chance (CI once found a short `g-1` elsewhere in one). */
const googleSubjectOf = (userId: number) => `google-subject-5f0c2e-${userId}`;

/** A buyer with a password, a saved address, a finished (paid, completed) order and a Google link. */
async function customerWithHistory() {
  const buyer = await registerUser(server, { mobile: '13987654321' });
  const call = (url: string, options: { method?: string; body?: unknown } = {}) =>
    server.request(url, { ...options, headers: authHeaders(buyer, { lang: 'en' }) });
  const address = await call('/v1/useraddress', { method: 'POST', body: ADDRESS });
  expect(address.body.code).toBe(200);
  const sku = await prepareSku(server, { stock: 10 });
  const placed = await call('/v2/order', { method: 'POST', body: { items: [{ sku_id: sku.id, quantity: 1 }] } });
  expect(placed.body.code).toBe(200);
  const order = placed.body.data as { id: number; order_no: string };
  await server.ctx.db
    .update(orders)
    .set({ status: 70, payStatus: 2, paidAt: new Date(), totalMinor: 25_900 })
    .where(eq(orders.id, order.id));
  await server.ctx.db
    .insert(userIdentities)
    .values({ userId: buyer.uid, provider: 'google', subject: googleSubjectOf(buyer.uid) });
  return { buyer, order };
}

describe('GET /v1/admin/customers/:id/export', () => {
  it("hands over the buyer's profile, addresses and orders as a file, without password hash or tokens", async () => {
    const manager = await createSignedInStaff(server, { role: 'manager' });
    const { buyer, order } = await customerWithHistory();

    const answer = await manager.request(`/v1/admin/customers/${buyer.uid}/export`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-disposition')).toMatch(
      new RegExp(`^attachment; filename="customer-${buyer.uid}-\\d{4}-\\d{2}-\\d{2}\\.json"$`),
    );
    const data = answer.body;
    expect(data.profile).toMatchObject({
      id: buyer.uid,
      email: buyer.email,
      username: buyer.username,
      mobile: '13987654321',
      has_password: true,
    });
    expect(data.addresses).toEqual([
      expect.objectContaining({
        country_code: 'CN',
        detail: '88 Tianhe Road, Building 3, Room 1201',
        postal_code: '510000',
        contact_name: 'Li Lei',
        contact_phone: '+8613812345678',
      }),
    ]);
    expect(data.orders).toEqual([
      expect.objectContaining({
        order_no: order.order_no,
        status: 70,
        pay_status: 2,
        total_minor: 25_900,
        shipping_address: expect.objectContaining({
          contact_name: 'Li Lei',
          detail: '88 Tianhe Road, Building 3, Room 1201',
        }),
        lines: [expect.objectContaining({ quantity: 1 })],
      }),
    ]);
    expect(data.identities).toEqual([{ provider: 'google', linked_at: expect.any(String) }]);
    expect(data.sessions).toHaveLength(1);

    const text = answer.text;
    const [stored] = await server.ctx.db.select().from(users).where(eq(users.id, buyer.uid));
    expect(text).not.toContain(stored!.passwordHash!);
    expect(text).not.toContain('scrypt$');
    expect(text).not.toContain(buyer.token);
    expect(text).not.toContain(googleSubjectOf(buyer.uid));

    const events = await server.ctx.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.entityId, String(buyer.uid)));
    expect(events.map((event) => [event.action, event.actorId, event.changes])).toEqual([
      ['customer.exported', manager.id, { orders: { after: 1 }, addresses: { after: 1 } }],
    ]);
  });
});

describe('POST /v1/admin/customers/:id/erase', () => {
  it('anonymises the account and the order snapshots, keeps the order and its amounts, deletes the rest', async () => {
    const officer = await createSignedInStaff(server, DATA_OFFICER);
    const { buyer, order } = await customerWithHistory();
    const [before] = await server.ctx.db.select().from(orders).where(eq(orders.id, order.id));

    const wrong = await officer.request(`/v1/admin/customers/${buyer.uid}/erase`, {
      method: 'POST',
      body: { confirm_email: 'someone-else@example.com' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toBe("The email you typed is not this customer's email");

    const answer = await officer.request(`/v1/admin/customers/${buyer.uid}/erase`, {
      method: 'POST',
      body: { confirm_email: buyer.email.toUpperCase() },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({
      id: buyer.uid,
      status: 'erased',
      erased_at: expect.any(String),
      erased_now: true,
      orders_kept: 1,
      files_removed: 0,
    });

    const [row] = await server.ctx.db.select().from(users).where(eq(users.id, buyer.uid));
    expect(row).toMatchObject({
      email: `erased-${buyer.uid}@erased.invalid`,
      username: `erased-${buyer.uid}`,
      usernameKey: `erased-${buyer.uid}`,
      mobile: null,
      avatar: null,
      passwordHash: null,
      sex: 0,
      emailVerifiedAt: null,
    });
    expect(row!.erasedAt).toBeInstanceOf(Date);

    const [kept] = await server.ctx.db.select().from(orders).where(eq(orders.id, order.id));
    expect(kept!.address).toEqual({
      ...before!.address,
      contact_name: '[erased]',
      contact_phone: '',
      detail: '[erased]',
      postal_code: '',
    });
    expect(kept!.address.country_code).toBe('CN');
    expect(kept!).toMatchObject({
      orderNo: order.order_no,
      totalMinor: 25_900,
      goodsAmountMinor: before!.goodsAmountMinor,
      status: 70,
      payStatus: 2,
      notes: '',
    });

    expect(await server.ctx.db.select().from(userAddresses).where(eq(userAddresses.userId, buyer.uid))).toEqual([]);
    expect(await server.ctx.db.select().from(sessions).where(eq(sessions.userId, buyer.uid))).toEqual([]);
    expect(await server.ctx.db.select().from(userIdentities).where(eq(userIdentities.userId, buyer.uid))).toEqual([]);
    expect((await server.request('/v1/user/info', { headers: authHeaders(buyer) })).body.code).toBe(302);

    const again = await officer.request(`/v1/admin/customers/${buyer.uid}/erase`, {
      method: 'POST',
      body: { confirm_email: buyer.email },
    });
    expect(again.body.data).toMatchObject({ status: 'erased', erased_now: false, orders_kept: 0 });

    const reRegistered = await registerRequest(server, { email: buyer.email, username: buyer.username });
    expect(reRegistered.body.code).toBe(200);
    expect(reRegistered.body.data.user.uid).not.toBe(buyer.uid);

    const events = await server.ctx.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.entityId, String(buyer.uid)));
    expect(events.map((event) => event.action)).toEqual(['customer.erased']);
    expect(events[0]!.changes).toEqual({
      email: { before: '[redacted]', after: '[redacted]' },
      username: { before: '[redacted]', after: '[redacted]' },
      mobile: { before: '[redacted]', after: '[redacted]' },
      has_password: { before: '[redacted]', after: '[redacted]' },
      erased_at: { before: null, after: expect.any(String) },
      addresses_deleted: { after: 1 },
      identities_deleted: { after: 1 },
      sessions_deleted: { after: 1 },
      orders_kept: { after: 1 },
    });
    const json = JSON.stringify(events);
    for (const personal of [buyer.email, buyer.username, '13987654321', 'Li Lei', 'Tianhe'])
      expect(json).not.toContain(personal);

    const disable = await officer.request(`/v1/admin/customers/${buyer.uid}/disable`, {
      method: 'POST',
      body: { reason: 'late' },
    });
    expect(disable.status).toBe(409);
  });

  it('refuses while an order is under way, and deletes an uploaded avatar once erased', async () => {
    const officer = await createSignedInStaff(server, DATA_OFFICER);
    const buyer = await registerUser(server);
    await server.request('/v1/useraddress', {
      method: 'POST',
      body: ADDRESS,
      headers: authHeaders(buyer),
    });
    const sku = await prepareSku(server, { stock: 10 });
    const placed = await server.request('/v2/order', {
      method: 'POST',
      body: { items: [{ sku_id: sku.id, quantity: 1 }] },
      headers: authHeaders(buyer),
    });
    const orderNo = placed.body.data.order_no as string;

    const refused = await officer.request(`/v1/admin/customers/${buyer.uid}/erase`, {
      method: 'POST',
      body: { confirm_email: buyer.email },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe(
      `Orders ${orderNo} are still under way. Erase the customer once they are delivered, cancelled or settled`,
    );
    const [untouched] = await server.ctx.db.select().from(users).where(eq(users.id, buyer.uid));
    expect(untouched!.email).toBe(buyer.email);

    await server.ctx.db.update(orders).set({ status: 60, payStatus: 3 }).where(eq(orders.orderNo, orderNo));
    const avatar = `/uploads/2026-11/erase-test-${buyer.uid}.webp`;
    const store = blobStoreOf(server.ctx.env);
    await store.put(avatar.slice(1), Buffer.from('webp'), { contentType: 'image/webp', visibility: 'public' });
    await server.ctx.db.update(users).set({ avatar }).where(eq(users.id, buyer.uid));

    const erased = await officer.request(`/v1/admin/customers/${buyer.uid}/erase`, {
      method: 'POST',
      body: { confirm_email: buyer.email },
    });
    expect(erased.body.data).toMatchObject({ erased_now: true, orders_kept: 1, files_removed: 1 });
    expect(await store.head(avatar.slice(1))).toBeNull();
  });

  it('is for customers:erase only: a Manager gets 403', async () => {
    const manager = await createSignedInStaff(server, { role: 'manager' });
    const buyer = await registerUser(server);
    const answer = await manager.request(`/v1/admin/customers/${buyer.uid}/erase`, {
      method: 'POST',
      body: { confirm_email: buyer.email },
    });
    expect(answer.status).toBe(403);
  });
});
