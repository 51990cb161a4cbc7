import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, products } from '../../server/db/schema';
import { germanAddress, makeShopper, prepareSku, usAddress } from '../support/buyers';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { useTestServer } from '../support/test-server';

/** The console's shipping rules (docs/console.md, "Shipping rules"; ADR 0175). */
const server = useTestServer();

let editor: TestStaff;
let sku: Awaited<ReturnType<typeof prepareSku>>;

/** Europe at 50.00 for the first kilo and 20.00 per further started 500 g, free from 500.00; the rest at 150.00 + 50.00 per 500 g. */
const NEW_RULES = {
  zones: [
    {
      countries: ['DE', 'FR'],
      first_weight_grams: 1_000,
      first_fee_minor: 5_000,
      additional_weight_grams: 500,
      additional_fee_minor: 2_000,
      free_over_minor: 50_000,
    },
    {
      countries: ['CN'],
      first_weight_grams: 1_000,
      first_fee_minor: 1_000,
      additional_weight_grams: 1_000,
      additional_fee_minor: 500,
      free_over_minor: null,
    },
  ],
  rest_of_world: {
    first_weight_grams: 500,
    first_fee_minor: 15_000,
    additional_weight_grams: 500,
    additional_fee_minor: 5_000,
    free_over_minor: null,
  },
};

beforeAll(async () => {
  editor = await createSignedInStaff(server, { permissions: ['settings:write'] });
  // A 1.2 kg product at 100.00 with service note 3, so its page shows the shipping promise.
  sku = await prepareSku(server, { stock: 50, priceMinor: 10_000, weightGrams: 1_200 });
  await server.ctx.db
    .update(products)
    .set({ serviceNotes: [3] })
    .where(eq(products.id, sku.productId));
});

async function checkoutShippingFee(address: Record<string, unknown>): Promise<number> {
  const shopper = await makeShopper(server, address);
  const quote = await shopper.call('/v2/order/confirm', {
    method: 'POST',
    body: { items: [{ sku_id: sku.id, quantity: 1 }] },
  });
  expect(quote.status).toBe(200);
  return quote.body.data.shipping_fee.amount_minor as number;
}

function germanPromise(html: string): string | undefined {
  return /<li class="service-note" data-ship-promise="DE">[\s\S]*?<\/svg>([^<]*)<\/li>/.exec(html)?.[1];
}

describe('permissions', () => {
  it('a Fulfilment member can neither read nor change the rules', async () => {
    const packer = await createSignedInStaff(server, { role: 'fulfilment' });
    expect((await packer.request('/v1/admin/shipping')).status).toBe(403);
    const write = await packer.request('/v1/admin/shipping', { method: 'PUT', body: NEW_RULES });
    expect(write.status).toBe(403);
    expect(write.body.msg).toBe('Your role does not allow this. Ask an Owner for access');
    expect(await checkoutShippingFee(germanAddress)).toBe(14_800);
  });
});

describe('GET /v1/admin/shipping', () => {
  it('shows the seeded rules as zones of countries sharing a price, and the rest of world', async () => {
    const answer = await editor.request('/v1/admin/shipping');
    expect(answer.status).toBe(200);
    expect(answer.body.data.currency).toBe('CNY');
    expect(answer.body.data.zones).toEqual([
      {
        countries: ['CN'],
        first_weight_grams: 1000,
        first_fee_minor: 1200,
        additional_weight_grams: 1000,
        additional_fee_minor: 600,
        free_over_minor: 19900,
      },
      {
        countries: ['JP', 'SG', 'MY'],
        first_weight_grams: 500,
        first_fee_minor: 4500,
        additional_weight_grams: 500,
        additional_fee_minor: 1500,
        free_over_minor: 49900,
      },
      {
        countries: ['GB', 'DE', 'FR'],
        first_weight_grams: 500,
        first_fee_minor: 8800,
        additional_weight_grams: 500,
        additional_fee_minor: 3000,
        free_over_minor: 89900,
      },
      {
        countries: ['US', 'CA', 'AU'],
        first_weight_grams: 500,
        first_fee_minor: 9800,
        additional_weight_grams: 500,
        additional_fee_minor: 3500,
        free_over_minor: 99900,
      },
    ]);
    expect(answer.body.data.rest_of_world).toEqual({
      first_weight_grams: 500,
      first_fee_minor: 12000,
      additional_weight_grams: 500,
      additional_fee_minor: 4500,
      free_over_minor: null,
    });
  });
});

describe('bad input is refused with a localized message and nothing changes', () => {
  const withZone = (change: Record<string, unknown>) => ({
    ...NEW_RULES,
    zones: [{ ...NEW_RULES.zones[0], ...change }, NEW_RULES.zones[1]],
  });

  it.each([
    ['a negative first fee', withZone({ first_fee_minor: -1 }), 'en', 'First fee must be at least 0'],
    ['a negative additional fee', withZone({ additional_fee_minor: -500 }), 'zh-cn', '续重运费不能小于 0'],
    ['a country in two zones', withZone({ countries: ['DE', 'CN'] }), 'en', 'CN is in more than one zone'],
    ['a country in two zones', withZone({ countries: ['DE', 'CN'] }), 'zh-cn', 'CN 出现在多个区域中'],
    [
      'a country name instead of its code',
      withZone({ countries: ['Germany'] }),
      'en',
      'Countries is not in a valid format',
    ],
    ['no rest-of-world pricing', { zones: NEW_RULES.zones }, 'en', 'Rest of world is required'],
  ])('%s (%s)', async (_label, body, lang, message) => {
    const before = await editor.request('/v1/admin/shipping');
    const answer = await editor.request('/v1/admin/shipping', { method: 'PUT', body, headers: { lang } });
    expect(answer.status).toBe(400);
    expect(answer.body.msg).toBe(message);
    expect((await editor.request('/v1/admin/shipping')).body.data).toEqual(before.body.data);
  });
});

describe('a changed rule is what checkout charges next', () => {
  it('previews, saves, audits, charges and retires the cached product page', async () => {
    // Before: Germany 88.00 for the first 500 g + two started 500 g at 30.00.
    expect(await checkoutShippingFee(germanAddress)).toBe(14_800);
    const pageBefore = await server.request(`/en/product/${sku.productId}`);
    expect(germanPromise(pageBefore.text)).toBe(
      'Free shipping to Germany on orders of CN¥899.00 or more, otherwise from CN¥88.00',
    );

    // The preview prices the draft with checkout's function: 1.2 kg = 50.00 + one started 500 g (20.00).
    const preview = await editor.request('/v1/admin/shipping/preview', {
      method: 'POST',
      body: { rules: NEW_RULES, country_code: 'DE', weight_grams: 1_200, goods_minor: 10_000 },
    });
    expect(preview.body.data).toEqual({ fee_minor: 7_000, zone: 0, free_over_reached: false });
    const free = await editor.request('/v1/admin/shipping/preview', {
      method: 'POST',
      body: { rules: NEW_RULES, country_code: 'DE', weight_grams: 1_200, goods_minor: 50_000 },
    });
    expect(free.body.data).toEqual({ fee_minor: 0, zone: 0, free_over_reached: true });
    const rest = await editor.request('/v1/admin/shipping/preview', {
      method: 'POST',
      body: { rules: NEW_RULES, country_code: 'US', weight_grams: 1_200, goods_minor: 10_000 },
    });
    expect(rest.body.data).toEqual({ fee_minor: 25_000, zone: null, free_over_reached: false });
    // The preview saved nothing.
    expect(await checkoutShippingFee(germanAddress)).toBe(14_800);

    const saved = await editor.request('/v1/admin/shipping', { method: 'PUT', body: NEW_RULES });
    expect(saved.status).toBe(200);
    expect(saved.body.data.zones).toEqual(NEW_RULES.zones);

    expect(await checkoutShippingFee(germanAddress)).toBe(7_000);
    // The United States left its own rule: now the rest of world, 150.00 + two started 500 g at 50.00.
    expect(await checkoutShippingFee(usAddress)).toBe(25_000);

    const pageAfter = await server.request(`/en/product/${sku.productId}`);
    expect(germanPromise(pageAfter.text)).toBe(
      'Free shipping to Germany on orders of CN¥500.00 or more, otherwise from CN¥50.00',
    );

    const [event] = await server.ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'shipping.updated'), eq(auditEvents.entityType, 'shipping_rules')));
    expect(event?.actorLabel).toBe(editor.email);
    expect(event?.changes.DE).toEqual({
      before: '500 g 8800, +500 g 3000, free over 89900',
      after: '1000 g 5000, +500 g 2000, free over 50000',
    });
    expect(event?.changes.US).toEqual({ before: '500 g 9800, +500 g 3500, free over 99900' });
    expect(event?.changes['*']).toEqual({
      before: '500 g 12000, +500 g 4500, free over never',
      after: '500 g 15000, +500 g 5000, free over never',
    });
    expect(event?.changes.CN).toEqual({
      before: '1000 g 1200, +1000 g 600, free over 19900',
      after: '1000 g 1000, +1000 g 500, free over never',
    });
  });
});
