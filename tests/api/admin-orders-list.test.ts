import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../server/domains/staff/permissions';
import { makeBuyer, type Buyer } from '../support/buyers';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { useTestApp } from '../support/test-server';
import { listedOrder } from './admin-orders-fixtures';

/** The console's order list (GET /v1/admin/orders) and its CSV export, over five orders placed in March 2021. */
const server = useTestApp();
const P = `L${randomBytes(3).toString('hex').toUpperCase()}`;
const MARCH = 'from=2021-03-01&to=2021-03-31';
let owner: TestStaff;
let buyer: Buyer;
let other: Buyer;

beforeAll(async () => {
  // Every permission, as an Owner has, without the Owner's required two-step sign-in.
  owner = await createSignedInStaff(server, { permissions: PERMISSIONS, refundLimitMinor: null });
  buyer = await makeBuyer(server);
  other = await makeBuyer(server);
  const place = (who: Buyer, facts: Parameters<typeof listedOrder>[2]) => listedOrder(server.ctx, who.id, facts);
  await place(buyer, {
    orderNo: `${P}A`,
    createdAt: '2021-03-01T10:00:00Z',
    status: 10,
    payStatus: 2,
    totalMinor: 5000,
    country: 'CN',
    contactName: 'Wang Fang',
  });
  await place(buyer, {
    orderNo: `${P}B`,
    createdAt: '2021-03-02T10:00:00Z',
    status: 1,
    payStatus: 1,
    totalMinor: 3000,
    country: 'US',
    contactName: 'John Smith',
  });
  await place(buyer, {
    orderNo: `${P}C`,
    createdAt: '2021-03-03T10:00:00Z',
    status: 10,
    payStatus: 2,
    totalMinor: 9000,
    country: 'US',
    contactName: 'Mary Jones',
  });
  await place(buyer, {
    orderNo: `${P}D`,
    createdAt: '2021-03-04T10:00:00Z',
    status: 20,
    payStatus: 2,
    totalMinor: 1000,
    country: 'CN',
    contactName: "=cmd|' /C calc'!A0",
  });
  await place(other, {
    orderNo: `${P}E`,
    createdAt: '2021-03-05T10:00:00Z',
    status: 60,
    payStatus: 3,
    totalMinor: 7000,
    country: 'GB',
    contactName: 'Li, "Lei"',
  });
});

async function listed(query: string, range = MARCH): Promise<{ numbers: string[]; total: number }> {
  const answer = await owner.request(`/v1/admin/orders?${range}&${query}`);
  expect(answer.status).toBe(200);
  return {
    numbers: answer.body.data.records.map((row: { order_no: string }) => row.order_no),
    total: answer.body.data.total,
  };
}

describe('the admin order list', () => {
  it('lists newest first by default, with the row fields the console shows', async () => {
    expect(await listed('')).toEqual({ numbers: [`${P}E`, `${P}D`, `${P}C`, `${P}B`, `${P}A`], total: 5 });
    const answer = await owner.request(`/v1/admin/orders?${MARCH}&q=${P}C`);
    expect(answer.body.data.records).toEqual([
      {
        id: expect.any(Number),
        order_no: `${P}C`,
        status: 10,
        status_text: 'Pending shipment',
        pay_status: 2,
        pay_status_text: 'Paid',
        created_at: '2021-03-03T10:00:00.000Z',
        paid_at: null,
        buyer_email: buyer.email,
        contact_name: 'Mary Jones',
        country_code: 'US',
        item_count: 0,
        total_minor: 9000,
        refunded_minor: 0,
        currency: 'CNY',
      },
    ]);
  });

  it('filters by status, pay status, country and date range', async () => {
    expect((await listed('status=10')).numbers).toEqual([`${P}C`, `${P}A`]);
    expect((await listed('pay_status=2&country=us')).numbers).toEqual([`${P}C`]);
    expect((await listed('country=CN')).numbers).toEqual([`${P}D`, `${P}A`]);
    expect((await listed('', 'from=2021-03-01&to=2021-03-03')).numbers).toEqual([`${P}C`, `${P}B`, `${P}A`]);
    expect((await listed('', 'from=2021-03-04&to=2021-03-04')).numbers).toEqual([`${P}D`]);
  });

  it('searches by order number, buyer email and contact name', async () => {
    expect((await listed(`q=${P}D`)).numbers).toEqual([`${P}D`]);
    expect((await listed('q=smith')).numbers).toEqual([`${P}B`]);
    expect((await listed(`q=${encodeURIComponent(other.email)}`)).numbers).toEqual([`${P}E`]);
    expect((await listed('q=100%25')).numbers).toEqual([]);
  });

  it('sorts by total or status either way, and pages on the server', async () => {
    expect((await listed('sort=total&dir=asc')).numbers).toEqual([`${P}D`, `${P}B`, `${P}A`, `${P}E`, `${P}C`]);
    expect((await listed('sort=total&dir=desc')).numbers).toEqual([`${P}C`, `${P}E`, `${P}A`, `${P}B`, `${P}D`]);
    expect((await listed('sort=status&dir=asc')).numbers).toEqual([`${P}B`, `${P}C`, `${P}A`, `${P}D`, `${P}E`]);
    expect(await listed('page_size=2&page=2')).toEqual({ numbers: [`${P}C`, `${P}B`], total: 5 });
    expect(await listed('page_size=2&page=4')).toEqual({ numbers: [], total: 5 });
  });

  it('refuses filters it does not know', async () => {
    for (const query of ['status=99', 'sort=email', 'from=March', 'country=USA', 'page_size=1000']) {
      const answer = await owner.request(`/v1/admin/orders?${query}`);
      expect(answer.status, query).toBe(400);
    }
  });
});

describe('the CSV export', () => {
  it('exports the filtered list with a header, quoting, and formulas defused', async () => {
    const answer = await owner.request(`/v1/admin/orders/export?${MARCH}&sort=created_at&dir=asc&country=CN`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(answer.text).toBe(
      [
        'order_no,created_at,status,pay_status,buyer_email,contact_name,country,items,total_minor,refunded_minor,currency',
        `${P}A,2021-03-01T10:00:00.000Z,Pending shipment,Paid,${buyer.email},Wang Fang,CN,0,5000,0,CNY`,
        `${P}D,2021-03-04T10:00:00.000Z,Pending receipt,Paid,${buyer.email},'=cmd|' /C calc'!A0,CN,0,1000,0,CNY`,
        '',
      ].join('\r\n'),
    );
  });

  it('quotes cells with commas and quotes', async () => {
    const answer = await owner.request(`/v1/admin/orders/export?${MARCH}&country=GB`);
    expect(answer.text.split('\r\n')[1]).toBe(
      `${P}E,2021-03-05T10:00:00.000Z,Order cancelled,Payment cancelled,${other.email},"Li, ""Lei""",GB,0,7000,0,CNY`,
    );
  });

  it('is refused to a member without orders:export', async () => {
    const fulfilment = await createSignedInStaff(server, { role: 'fulfilment' });
    expect((await fulfilment.request(`/v1/admin/orders/export?${MARCH}`)).status).toBe(403);
    expect((await fulfilment.request(`/v1/admin/orders?${MARCH}`)).status).toBe(200);
  });
});
