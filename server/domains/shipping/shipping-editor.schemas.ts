import { z } from 'zod';

/**
 * The console's shipping editor (docs/console.md, "Shipping rules"): zones of countries that
 * share one pricing, and the rest-of-world pricing every other country ships at. Amounts are
 * minor units of the settlement currency, weights grams.
 */

const minorAmount = z.number().int().min(0).max(100_000_000);
const grams = z.number().int().min(1).max(1_000_000);
const countryCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/);

export const shippingPricing = z.object({
  first_weight_grams: grams,
  first_fee_minor: minorAmount,
  additional_weight_grams: grams,
  additional_fee_minor: minorAmount,
  /** Goods totals from this amount ship free; null: never free. */
  free_over_minor: minorAmount.nullable(),
});
export type ShippingPricingBody = z.infer<typeof shippingPricing>;

export const shippingZone = shippingPricing.extend({ countries: z.array(countryCode).min(1).max(250) });
export type ShippingZone = z.infer<typeof shippingZone>;

/**
 * The whole rule set, replaced at once. The rest-of-world pricing is required, so every
 * country has a price (ADR 0175); a country belongs to at most one zone.
 */
export const shippingRulesBody = z
  .object({ zones: z.array(shippingZone).max(100), rest_of_world: shippingPricing })
  .superRefine((body, issues) => {
    const seen = new Set<string>();
    body.zones.forEach((zone, index) => {
      for (const country of zone.countries) {
        if (seen.has(country))
          issues.addIssue({
            code: 'custom',
            message: 'adminShipping.countryTwice',
            params: { country },
            path: ['zones', index, 'countries'],
          });
        seen.add(country);
      }
    });
  });
export type ShippingRulesBody = z.infer<typeof shippingRulesBody>;

export const shippingRulesView = z.object({
  zones: z.array(shippingZone),
  /** Null only when the shop has no rest-of-world rule yet (every other country then ships free). */
  rest_of_world: shippingPricing.nullable(),
  /** The settlement currency the amounts are in. */
  currency: z.string(),
});
export type ShippingRulesView = z.infer<typeof shippingRulesView>;

/** "A 1.2 kg parcel to Germany costs ...", computed from a draft rule set before it is saved. */
export const shippingPreviewBody = z.object({
  rules: shippingRulesBody,
  country_code: countryCode,
  weight_grams: grams,
  goods_minor: minorAmount,
});

export const shippingPreview = z.object({
  fee_minor: z.number().int(),
  /** The zone (index in `rules.zones`) the country falls in; null: rest of world. */
  zone: z.number().int().nullable(),
  /** The goods reached the free-shipping threshold. */
  free_over_reached: z.boolean(),
});
