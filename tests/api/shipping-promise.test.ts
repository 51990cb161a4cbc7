import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { products } from '../../server/db/schema';
import { cookieValue } from '../support/accounts';
import { germanAddress, makeBuyer, makeShopper, prepareSku, usAddress } from '../support/buyers';
import { useTestServer } from '../support/test-server';

/** The product page's shipping promise is worded from the rules checkout charges by (ADR 0119). */
const server = useTestServer();

let sku: Awaited<ReturnType<typeof prepareSku>>;

beforeAll(async () => {
  // A 400 g product at 100.00 with service note 3: lighter than every rule's first weight.
  sku = await prepareSku(server, { stock: 50, priceMinor: 10_000, weightGrams: 400 });
  await server.ctx.db
    .update(products)
    .set({ serviceNotes: [3] })
    .where(eq(products.id, sku.productId));
});

/** The text of each shipping promise line of a product page, by its country ('*': anywhere). */
async function promiseLines(lang: string, cookies: Record<string, string> = {}): Promise<Record<string, string>> {
  const page = await server.request(`/${lang}/product/${sku.productId}`, { cookies });
  expect(page.status).toBe(200);
  return Object.fromEntries(
    [...page.text.matchAll(/<li class="service-note" data-ship-promise="([^"]+)">[\s\S]*?<\/svg>([^<]*)<\/li>/g)].map(
      (match) => [match[1]!, match[2]!],
    ),
  );
}

async function shippingFeeFor(address: Record<string, unknown>, quantity: number) {
  const shopper = await makeShopper(server, address);
  const quote = await shopper.call('/v2/order/confirm', {
    method: 'POST',
    body: { items: [{ sku_id: sku.id, quantity }] },
  });
  expect(quote.status).toBe(200);
  return quote.body.data.shipping_fee as { amount_minor: number; amount: string };
}

describe('the product page shipping promise', () => {
  it('says the same as the seeded rules, in both languages, with a line for anywhere and one per country', async () => {
    const en = await promiseLines('en');
    expect(en['*']).toBe('Free shipping on orders from CN¥199.00, depending on the country');
    expect(en.DE).toBe('Free shipping to Germany on orders of CN¥899.00 or more, otherwise from CN¥88.00');
    expect(en.US).toBe('Free shipping to United States on orders of CN¥999.00 or more, otherwise from CN¥98.00');
    expect(en.CN).toBe('Free shipping to China on orders of CN¥199.00 or more, otherwise from CN¥12.00');
    expect(Object.keys(en).sort()).toEqual(['*', 'AU', 'CA', 'CN', 'DE', 'FR', 'GB', 'JP', 'MY', 'SG', 'US']);
    const zh = await promiseLines('zh-cn');
    expect(zh['*']).toBe('满 199.00元 起包邮，具体门槛因国家而异');
    expect(zh.DE).toBe('寄往德国满 899.00元 包邮，未满运费 88.00元 起');
    expect(zh.US).toBe('寄往美国满 999.00元 包邮，未满运费 98.00元 起');
  });

  it("matches checkout's shipping fee for the same country, below and at the free threshold", async () => {
    const german = await shippingFeeFor(germanAddress, 1);
    expect(german).toMatchObject({ amount_minor: 8_800, amount: '88.00' });
    expect((await promiseLines('en')).DE).toContain(`otherwise from CN¥${german.amount}`);
    // 9 × 100.00 = 900.00, over Germany's 899.00.
    expect((await shippingFeeFor(germanAddress, 9)).amount_minor).toBe(0);

    const american = await shippingFeeFor(usAddress, 1);
    expect(american).toMatchObject({ amount_minor: 9_800, amount: '98.00' });
    expect((await promiseLines('en')).US).toContain(`otherwise from CN¥${american.amount}`);
    // 9 × 100.00 = 900.00, under the United States' 999.00: still charged.
    expect((await shippingFeeFor(usAddress, 9)).amount_minor).toBeGreaterThan(0);
  });

  it('is one shared page: the buyer-country cookie does not change the document', async () => {
    const anonymous = await server.request(`/en/product/${sku.productId}`);
    const german = await server.request(`/en/product/${sku.productId}`, { cookies: { ship_to: 'DE' } });
    expect(german.text).toBe(anonymous.text);
  });
});

describe('GET /v1/visitor keeps the ship_to cookie', () => {
  it("sets it to the default address's country, readable by the page", async () => {
    const shopper = await makeShopper(server, germanAddress);
    const answer = await shopper.call('/v1/visitor');
    const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('ship_to='));
    expect(cookie).toMatch(/^ship_to=DE; Max-Age=31536000; Path=\/; SameSite=Lax$/);
  });

  it('sends nothing when the cookie is already right, and clears it when the buyer has no address', async () => {
    const shopper = await makeShopper(server, germanAddress);
    const unchanged = await shopper.call('/v1/visitor', { cookies: { ship_to: 'DE' } });
    expect(cookieValue(unchanged.headers.getSetCookie(), 'ship_to')).toBeUndefined();
    const newcomer = await makeBuyer(server);
    const cleared = await newcomer.call('/v1/visitor', { cookies: { ship_to: 'DE' } });
    expect(cookieValue(cleared.headers.getSetCookie(), 'ship_to')).toBe('');
  });

  it('leaves an anonymous visitor alone, and goes at logout', async () => {
    const anonymous = await server.request('/v1/visitor', { cookies: { ship_to: 'DE' } });
    expect(cookieValue(anonymous.headers.getSetCookie(), 'ship_to')).toBeUndefined();
    const shopper = await makeShopper(server, germanAddress);
    const logout = await shopper.call('/v1/user/logout', { method: 'POST', body: {} });
    expect(logout.status).toBe(200);
    expect(cookieValue(logout.headers.getSetCookie(), 'ship_to')).toBe('');
  });
});
