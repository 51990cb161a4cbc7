import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, exchangeRates } from '../../server/db/schema';
import { isStale, seedExchangeRates } from '../../server/domains/exchange-rates/exchange-rates.service';
import { bumpContentVersion } from '../../server/shared/content-version';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { useTestApp } from '../support/test-server';

/** The console's currencies screen: exchange rates with their time, source and staleness (ADR 0144). */
const shop = useTestApp();

let editor: TestStaff;
let packer: TestStaff;

beforeAll(async () => {
  editor = await createSignedInStaff(shop, { permissions: ['settings:write'] });
  packer = await createSignedInStaff(shop, { permissions: ['orders:read'] });
});

const setRate = (currency: string, body: Record<string, unknown>, lang = 'en') =>
  editor.request(`/v1/admin/exchange-rates/${currency}`, { method: 'PUT', body, headers: { lang } });

describe('exchange rates in the console', () => {
  it('lists every display currency but the settlement one, with the seeded rate, its source and time', async () => {
    const answer = await editor.request('/v1/admin/exchange-rates');
    expect(answer.status).toBe(200);
    expect(answer.body.data.settlement_currency).toBe('CNY');
    expect(answer.body.data.max_age_hours).toBe(72);
    const rows = answer.body.data.rates as Array<Record<string, unknown>>;
    expect(rows.map((row) => [row.currency, row.rate, row.source, row.set_by, row.stale])).toEqual([
      ['USD', '0.138900', 'seed', 'seed', false],
      ['EUR', '0.130200', 'seed', 'seed', false],
      ['JPY', '21.370000', 'seed', 'seed', false],
      ['GBP', '0.110100', 'seed', 'seed', false],
      ['KRW', '196.850000', 'seed', 'seed', false],
      ['AUD', '0.211200', 'seed', 'seed', false],
      ['CAD', '0.192100', 'seed', 'seed', false],
      ['HKD', '1.081200', 'seed', 'seed', false],
    ]);
  });

  it('sets a rate with its source, audited before and after, and prices follow at once', async () => {
    const answer = await setRate('USD', { rate: '0.1402', source: 'ECB reference rate 2026-11-27' });
    expect(answer.status, answer.body.msg).toBe(200);
    expect(answer.body.data).toMatchObject({
      currency: 'USD',
      rate: '0.140200',
      rate_micros: 140_200,
      source: 'ECB reference rate 2026-11-27',
      stale: false,
    });
    const listed = (await editor.request('/v1/admin/exchange-rates')).body.data.rates as Array<Record<string, unknown>>;
    expect(listed.find((row) => row.currency === 'USD')).toMatchObject({ set_by: editor.email });

    const [event] = await shop.ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'exchangeRate.set'), eq(auditEvents.entityId, 'USD')));
    expect(event?.actorLabel).toBe(editor.email);
    expect(event?.changes).toEqual({
      rate: { before: '0.138900', after: '0.140200' },
      source: { before: 'seed', after: 'ECB reference rate 2026-11-27' },
    });
    // The storefront's configuration converts with the new rate straight away.
    expect((await shop.request('/v1/config')).body.data.exchange_rates.USD).toBe(0.1402);
  });

  it('refuses a rate that is not a positive number within bounds, or a slip far from the current one, in the member’s language', async () => {
    const tooFar = await setRate('JPY', { rate: '2137', source: 'typed in a hurry' }, 'zh-cn');
    expect(tooFar.status).toBe(400);
    expect(tooFar.body.msg).toBe(
      '新汇率超过当前汇率 21.370000 的两倍或不足一半。请核对：每 1 单位结算货币可兑换的 JPY 数量。',
    );
    const zero = await setRate('JPY', { rate: '0', source: 'nothing' });
    expect([zero.status, zero.body.msg]).toEqual([400, 'The rate must be greater than 0 and at most 1,000,000.']);
    const huge = await setRate('KRW', { rate: '1000001', source: 'no' });
    expect([huge.status, huge.body.msg]).toEqual([400, 'The rate must be greater than 0 and at most 1,000,000.']);
    expect((await setRate('JPY', { rate: '21,37', source: 'comma' })).status).toBe(400);
    expect((await setRate('JPY', { rate: '-21', source: 'minus' })).status).toBe(400);
    expect((await setRate('JPY', { rate: '21.4', source: '' })).status).toBe(400);
    const settlement = await setRate('CNY', { rate: '1', source: 'itself' });
    expect([settlement.status, settlement.body.msg]).toEqual([
      400,
      'CNY is the settlement currency: its rate is always 1.',
    ]);
    const [jpy] = await shop.ctx.db.select().from(exchangeRates).where(eq(exchangeRates.currency, 'JPY'));
    expect(jpy).toMatchObject({ rateMicros: 21_370_000, source: 'seed' });
  });

  it('is only for members who may change settings', async () => {
    expect((await packer.request('/v1/admin/exchange-rates')).status).toBe(403);
    const write = await packer.request('/v1/admin/exchange-rates/JPY', {
      method: 'PUT',
      body: { rate: '21.4', source: 'me' },
    });
    expect(write.status).toBe(403);
  });

  it('flags a rate older than EXCHANGE_RATE_MAX_AGE_HOURS as stale, and a fresh one again once it is set', async () => {
    await shop.ctx.db
      .update(exchangeRates)
      .set({ setAt: new Date(Date.now() - 73 * 3_600_000) })
      .where(eq(exchangeRates.currency, 'GBP'));
    await bumpContentVersion(shop.ctx);
    const stale = (await editor.request('/v1/admin/exchange-rates')).body.data.rates as Array<Record<string, unknown>>;
    expect(stale.filter((row) => row.stale).map((row) => row.currency)).toEqual(['GBP']);
    expect((await setRate('GBP', { rate: '0.1104', source: 'ECB reference rate 2026-11-27' })).body.data.stale).toBe(
      false,
    );
  });

  it('checks a currency’s first rate against the demo rate buyers saw until then', async () => {
    await shop.ctx.db.delete(exchangeRates).where(eq(exchangeRates.currency, 'HKD'));
    await bumpContentVersion(shop.ctx);
    const slip = await setRate('HKD', { rate: '108.12', source: 'typed without the point' });
    expect([slip.status, slip.body.msg]).toEqual([
      400,
      'The new rate is more than twice or less than half the current 1.081200. Check the figure: units of HKD per one unit of the settlement currency.',
    ]);
    const first = await setRate('HKD', { rate: '1.0795', source: 'HKMA 2026-11-27' });
    expect([first.status, first.body.data?.rate]).toEqual([200, '1.079500']);
  });
});

describe('the demo rates the seed writes', () => {
  it('carry the day they were true, so an unattended shop sees them go stale', async () => {
    await shop.ctx.db.delete(exchangeRates).where(eq(exchangeRates.currency, 'CAD'));
    await seedExchangeRates(shop.ctx);
    const [cad] = await shop.ctx.db.select().from(exchangeRates).where(eq(exchangeRates.currency, 'CAD'));
    expect(cad).toMatchObject({ rateMicros: 192_100, source: 'seed', setBy: 'seed' });
    expect(cad?.setAt.toISOString()).toBe('2026-11-27T00:00:00.000Z');
    expect(isStale(shop.ctx, cad!, new Date('2026-11-29T23:59:00Z'))).toBe(false);
    expect(isStale(shop.ctx, cad!, new Date('2026-11-30T00:01:00Z'))).toBe(true);
  });
});
