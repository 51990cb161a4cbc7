import { asc } from 'drizzle-orm';
import { shippingRules } from '../../db/schema';
import type { ActingContext, AppContext } from '../../context';
import { bumpContentVersion } from '../../shared/content-version';
import { recordAudit } from '../audit/audit.service';
import { getSiteSettings } from '../site-settings/site-settings.service';
import { ANY_COUNTRY, forgetShippingRules, ruleOf, shippingFee, type ShippingPricing } from './shipping.service';
import type {
  ShippingPricingBody,
  ShippingRulesBody,
  ShippingRulesView,
  ShippingZone,
} from './shipping-editor.schemas';

/**
 * The console's shipping editor (ADR 0175). Rules stay one row per country (checkout and the
 * product page read them as they did); a zone is the console's view of the countries that
 * share one pricing, and a save replaces the whole set in one transaction.
 */

function pricingOf(rule: ShippingPricing): ShippingPricingBody {
  return {
    first_weight_grams: rule.firstWeightGrams,
    first_fee_minor: rule.firstFeeMinor,
    additional_weight_grams: rule.additionalWeightGrams,
    additional_fee_minor: rule.additionalFeeMinor,
    free_over_minor: rule.freeOverMinor,
  };
}

function ruleFrom(countryCode: string, pricing: ShippingPricingBody) {
  return {
    countryCode,
    firstWeightGrams: pricing.first_weight_grams,
    firstFeeMinor: pricing.first_fee_minor,
    additionalWeightGrams: pricing.additional_weight_grams,
    additionalFeeMinor: pricing.additional_fee_minor,
    freeOverMinor: pricing.free_over_minor,
  };
}

/** One row per country, the zones' in their order and the rest of world last. */
function rowsOf(body: ShippingRulesBody) {
  return [
    ...body.zones.flatMap((zone) => zone.countries.map((country) => ruleFrom(country, zone))),
    ruleFrom(ANY_COUNTRY, body.rest_of_world),
  ];
}

/** Countries with the same pricing form one zone, in the order their first country was saved. */
function zonesOf(rules: ReadonlyArray<ShippingPricing & { countryCode: string }>): ShippingZone[] {
  const zones = new Map<string, ShippingZone>();
  for (const rule of rules) {
    if (rule.countryCode === ANY_COUNTRY) continue;
    const pricing = pricingOf(rule);
    const key = JSON.stringify(pricing);
    const zone = zones.get(key);
    if (zone) zone.countries.push(rule.countryCode);
    else zones.set(key, { ...pricing, countries: [rule.countryCode] });
  }
  return [...zones.values()];
}

async function savedRules(ctx: AppContext) {
  return ctx.db.select().from(shippingRules).orderBy(asc(shippingRules.id));
}

function viewOf(rules: Awaited<ReturnType<typeof savedRules>>, currency: string): ShippingRulesView {
  const rest = rules.find((rule) => rule.countryCode === ANY_COUNTRY);
  return { zones: zonesOf(rules), rest_of_world: rest ? pricingOf(rest) : null, currency };
}

export async function getShippingRules(ctx: AppContext): Promise<ShippingRulesView> {
  const [rules, settings] = await Promise.all([savedRules(ctx), getSiteSettings(ctx)]);
  return viewOf(rules, settings.currency);
}

/** Each country's pricing as one readable line, so the audit diff names exactly the countries that changed. */
function auditShape(rules: ReadonlyArray<ShippingPricing & { countryCode: string }>): Record<string, string> {
  return Object.fromEntries(
    rules.map((rule) => [
      rule.countryCode,
      `${rule.firstWeightGrams} g ${rule.firstFeeMinor}, +${rule.additionalWeightGrams} g ${rule.additionalFeeMinor}, free over ${rule.freeOverMinor ?? 'never'}`,
    ]),
  );
}

/**
 * Replaces every rule, audited with each country's pricing before and after, then retires
 * what shows them: the kept rules in this process and, through the content version, the
 * cached product pages (their shipping promise) in every server copy.
 */
export async function replaceShippingRules(ctx: ActingContext, body: ShippingRulesBody): Promise<ShippingRulesView> {
  const rows = rowsOf(body);
  await ctx.db.transaction(async (tx) => {
    const before = await tx.select().from(shippingRules).orderBy(asc(shippingRules.id)).for('update');
    await tx.delete(shippingRules);
    await tx.insert(shippingRules).values(rows);
    await recordAudit(
      { ...ctx, db: tx },
      {
        action: 'shipping.updated',
        entityType: 'shipping_rules',
        entityId: 'all',
        before: auditShape(before),
        after: auditShape(rows),
      },
    );
  });
  forgetShippingRules();
  await bumpContentVersion(ctx);
  return getShippingRules(ctx);
}

/** The fee of one parcel under a draft rule set, through the function checkout charges with. */
export function previewShippingFee(input: {
  rules: ShippingRulesBody;
  country_code: string;
  weight_grams: number;
  goods_minor: number;
}) {
  const rule = ruleOf(rowsOf(input.rules), input.country_code);
  const zone = input.rules.zones.findIndex((candidate) => candidate.countries.includes(input.country_code));
  return {
    fee_minor: shippingFee(rule, { weightGrams: input.weight_grams, goodsMinor: input.goods_minor }),
    zone: zone === -1 ? null : zone,
    free_over_reached: rule?.freeOverMinor != null && input.goods_minor >= rule.freeOverMinor,
  };
}
