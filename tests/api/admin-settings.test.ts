import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents, orders, siteSettings } from '../../server/db/schema';
import { orderTimers } from '../../server/domains/site-settings/site-settings.service';
import { makeShopper, placeOrderFor, prepareSku, usAddress } from '../support/buyers';
import { createSignedInStaff } from '../support/staff';
import { useTestServer } from '../support/test-server';

/** Site settings in the admin API (docs/console.md): who may change them, what is refused, what changes. */
const server = useTestServer({ ORDER_PAYMENT_TIMEOUT_MINUTES: '45', ORDER_AUTO_CONFIRM_DAYS: '12' });

async function storedSetting(key: string) {
  const [row] = await server.ctx.db.select().from(siteSettings).where(eq(siteSettings.key, key));
  return row?.value;
}

async function settingsAudit() {
  return server.ctx.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entityType, 'settings'), eq(auditEvents.action, 'settings.updated')));
}

describe('GET and PATCH /v1/admin/settings', () => {
  it('shows the editable settings with the timers’ environment defaults', async () => {
    const editor = await createSignedInStaff(server, { permissions: ['settings:write'] });
    const answer = await editor.request('/v1/admin/settings');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      shop_name: { en: 'Lumen & Loom', 'zh-cn': '光织良品' },
      logo: '/brand/logo.svg',
      country_list: ['US', 'GB', 'CA', 'AU', 'DE', 'FR', 'JP', 'SG', 'MY', 'CN'],
      announcement: { en: '', 'zh-cn': '' },
      order_payment_timeout_minutes: null,
      order_auto_confirm_days: null,
      settlement_currency: 'CNY',
      timer_defaults: { order_payment_timeout_minutes: 45, order_auto_confirm_days: 12 },
    });
  });

  it('saves what changed, audits it with before and after, and the storefront shows it at once', async () => {
    const editor = await createSignedInStaff(server, { permissions: ['settings:write'] });
    // A page cached before the change must not be served after it.
    const before = await server.request('/en/our-story');
    expect(before.text).not.toContain('Free shipping this weekend');

    const saved = await editor.request('/v1/admin/settings', {
      method: 'PATCH',
      body: {
        announcement: { en: 'Free shipping this weekend', 'zh-cn': '本周末包邮' },
        country_list: ['US', 'DE', 'JP'],
        logo: '/brand/logo.svg',
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data.announcement).toEqual({ en: 'Free shipping this weekend', 'zh-cn': '本周末包邮' });
    expect(saved.body.data.country_list).toEqual(['US', 'DE', 'JP']);

    const events = await settingsAudit();
    const last = events.at(-1)!;
    expect(last.actorId).toBe(editor.id);
    // The logo was sent unchanged: it is not part of the event.
    expect(last.changes).toEqual({
      announcement: {
        before: { en: '', 'zh-cn': '' },
        after: { en: 'Free shipping this weekend', 'zh-cn': '本周末包邮' },
      },
      country_list: {
        before: ['US', 'GB', 'CA', 'AU', 'DE', 'FR', 'JP', 'SG', 'MY', 'CN'],
        after: ['US', 'DE', 'JP'],
      },
    });

    const english = await server.request('/en/our-story');
    expect(english.text).toContain('Free shipping this weekend');
    const chinese = await server.request('/zh-cn/our-story');
    expect(chinese.text).toContain('本周末包邮');
    const site = await server.request('/v1/siteManage', { headers: { lang: 'en' } });
    expect(site.body.data.country_list).toEqual(['US', 'DE', 'JP']);

    const hidden = await editor.request('/v1/admin/settings', {
      method: 'PATCH',
      body: { announcement: { en: '', 'zh-cn': '' } },
    });
    expect(hidden.status).toBe(200);
    expect((await server.request('/en/our-story')).text).not.toContain('Free shipping this weekend');
  });

  it('refuses members without settings:write, and changes nothing', async () => {
    const support = await createSignedInStaff(server, { role: 'support' });
    const manager = await createSignedInStaff(server, { role: 'manager' });
    for (const member of [support, manager]) {
      expect((await member.request('/v1/admin/settings')).status).toBe(403);
      const refused = await member.request('/v1/admin/settings', {
        method: 'PATCH',
        body: { analysis_code: '<script>steal()</script>' },
      });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        code: 403,
        msg: 'Your role does not allow this. Ask an Owner for access',
        data: null,
      });
    }
    expect(await storedSetting('analysis_code')).toBe('');
  });

  it.each([
    [{ country_list: ['US', 'XX'] }, 'Countries shipped to: use two-letter ISO country codes such as US or DE'],
    [{ country_list: ['usa'] }, 'Countries shipped to: use two-letter ISO country codes such as US or DE'],
    [{ country_list: ['US', 'US'] }, 'Countries shipped to names the same entry twice'],
    [{ country_list: [] }, 'Countries shipped to must be at least 1'],
    [{ announcement: { en: 'x'.repeat(201), 'zh-cn': '' } }, 'English text cannot be longer than 200 characters'],
    [
      { shop_name: { en: 'Lumen\u0000Loom', 'zh-cn': '光织' } },
      'English text contains characters that are not allowed',
    ],
    [{ logo: 'javascript:alert(1)' }, 'Logo must be an address on this shop (/images/…) or an https address'],
    [{ client_id: 'not-a-client' }, 'Google client ID must end with .apps.googleusercontent.com, or be empty'],
    [{ display_currencies: ['USD', 'XYZ'] }, 'Currencies offered must be one of CNY, USD'],
    [{ order_payment_timeout_minutes: 2 }, 'Payment timeout must be at least 5'],
    [{ order_auto_confirm_days: 1.5 }, 'Receipt confirmation must be a whole number'],
    [{ currency: 'USD' }, 'Unknown field'],
    [{}, 'There is nothing to save'],
  ])('refuses %j with a message naming the field', async (body, message) => {
    const editor = await createSignedInStaff(server, { permissions: ['settings:write'] });
    const answer = await editor.request('/v1/admin/settings', { method: 'PATCH', body });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe(400);
    expect(answer.body.msg).toContain(message);
  });

  it('writes nothing when one field of a save is refused', async () => {
    const editor = await createSignedInStaff(server, { permissions: ['settings:write'] });
    const eventsBefore = (await settingsAudit()).length;
    const answer = await editor.request('/v1/admin/settings', {
      method: 'PATCH',
      headers: { lang: 'zh-cn' },
      body: { announcement: { en: 'Half written', 'zh-cn': '写了一半' }, country_list: ['US', 'ZZ'] },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.msg).toBe('配送国家：请使用两位字母的 ISO 国家代码，如 US 或 DE');
    expect(await storedSetting('announcement')).not.toEqual({ en: 'Half written', 'zh-cn': '写了一半' });
    expect((await settingsAudit()).length).toBe(eventsBefore);
  });
});

describe('currencies offered', () => {
  it('limit the storefront’s currency picker, and a cookie for a currency no longer offered shows the settlement currency', async () => {
    const editor = await createSignedInStaff(server, { permissions: ['settings:write'] });
    const saved = await editor.request('/v1/admin/settings', {
      method: 'PATCH',
      body: { display_currencies: ['USD', 'EUR'] },
    });
    // The settlement currency is always offered.
    expect(saved.body.data.display_currencies).toEqual(['CNY', 'USD', 'EUR']);

    const page = await server.request('/en/our-story', { cookies: { currency: 'GBP' } });
    const options = [...page.text.matchAll(/<option value="([A-Z]{3})"/g)].map((match) => match[1]);
    expect(new Set(options)).toEqual(new Set(['CNY', 'USD', 'EUR']));
    expect(page.text).toMatch(/<option value="CNY" selected=""/);
  });
});

describe('order timers', () => {
  it('come from the environment until set, from the setting once set, and from the environment again when cleared', async () => {
    const editor = await createSignedInStaff(server, { permissions: ['settings:write'] });
    expect(await orderTimers(server.ctx)).toEqual({ paymentTimeoutMinutes: 45, autoConfirmDays: 12 });

    const saved = await editor.request('/v1/admin/settings', {
      method: 'PATCH',
      body: { order_payment_timeout_minutes: 90, order_auto_confirm_days: 3 },
    });
    expect(saved.status).toBe(200);
    expect(await orderTimers(server.ctx)).toEqual({ paymentTimeoutMinutes: 90, autoConfirmDays: 3 });

    // An earlier test left the shop shipping to US, DE and JP only.
    const shopper = await makeShopper(server, usAddress);
    const sku = await prepareSku(server, { stock: 5 });
    const placed = await placeOrderFor(shopper, sku.id);
    const [order] = await server.ctx.db.select().from(orders).where(eq(orders.id, placed.id));
    expect(order!.paymentDeadline!.getTime() - order!.createdAt.getTime()).toBe(90 * 60_000);

    const cleared = await editor.request('/v1/admin/settings', {
      method: 'PATCH',
      body: { order_payment_timeout_minutes: null, order_auto_confirm_days: null },
    });
    expect(cleared.body.data.order_payment_timeout_minutes).toBeNull();
    expect(await storedSetting('order_payment_timeout_minutes')).toBeUndefined();
    expect(await orderTimers(server.ctx)).toEqual({ paymentTimeoutMinutes: 45, autoConfirmDays: 12 });
  });
});
