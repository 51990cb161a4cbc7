import { shippingRules } from '../../db/schema';
import type { Database } from '../../db/client';
import type { AppContext } from '../../context';
import { keptUntilContentChanges } from '../../shared/content-version';

export type ShippingRule = typeof shippingRules.$inferSelect;

/** Country code of the rule that applies where no country has its own. */
export const ANY_COUNTRY = '*';

/**
 * Every rule (one per country the shop prices, a few dozen rows), kept in memory: every
 * checkout quote and product page reads them. Whatever changes a rule bumps the content version.
 */
const keptRules = keptUntilContentChanges((ctx) => ctx.db.select().from(shippingRules));

/** What a fee is computed from: a rule's pricing, saved or (the console's preview) a draft. */
export type ShippingPricing = Pick<
  ShippingRule,
  'firstWeightGrams' | 'firstFeeMinor' | 'additionalWeightGrams' | 'additionalFeeMinor' | 'freeOverMinor'
>;

/** The rule of a country among `rules`: its own, else the rest-of-world rule (`*`), else none (free). */
export function ruleOf<Rule extends { countryCode: string }>(rules: readonly Rule[], countryCode: string): Rule | null {
  return (
    rules.find((row) => row.countryCode === countryCode) ?? rules.find((row) => row.countryCode === ANY_COUNTRY) ?? null
  );
}

export async function shippingRuleFor(ctx: AppContext, countryCode: string): Promise<ShippingRule | null> {
  return ruleOf(await keptRules.read(ctx), countryCode);
}

/**
 * First weight + each started additional weight; free when the goods reach the rule's
 * threshold or nothing in the parcel is charged by weight. Minor units of the settlement currency.
 */
export function shippingFee(rule: ShippingPricing | null, parcel: { weightGrams: number; goodsMinor: number }): number {
  if (!rule || parcel.weightGrams <= 0) return 0;
  if (rule.freeOverMinor !== null && parcel.goodsMinor >= rule.freeOverMinor) return 0;
  const extraWeight = Math.max(0, parcel.weightGrams - rule.firstWeightGrams);
  const extraSteps = rule.additionalWeightGrams > 0 ? Math.ceil(extraWeight / rule.additionalWeightGrams) : 0;
  return rule.firstFeeMinor + extraSteps * rule.additionalFeeMinor;
}

/**
 * What the shop can promise about shipping to each country: the fee of the lightest parcel
 * and the goods total from which shipping is free (null: never), in settlement minor units.
 * Read through `shippingFee`, so a promise cannot drift from what checkout charges.
 */
export interface ShippingTerms {
  countryCode: string;
  fromMinor: number;
  freeOverMinor: number | null;
}

export async function shippingTerms(ctx: AppContext, countryCodes: readonly string[]): Promise<ShippingTerms[]> {
  const rules = await keptRules.read(ctx);
  return countryCodes.map((countryCode) => {
    const rule = ruleOf(rules, countryCode);
    const fromMinor = shippingFee(rule, { weightGrams: 1, goodsMinor: 0 });
    const freeOverMinor = fromMinor === 0 ? 0 : (rule?.freeOverMinor ?? null);
    return { countryCode, fromMinor, freeOverMinor };
  });
}

/** After the console replaced the rules: this process reads them afresh (the content version bump tells the others). */
export function forgetShippingRules(): void {
  keptRules.forget();
}

type RuleSeed = Omit<typeof shippingRules.$inferInsert, 'id' | 'updatedAt'>;
const rule = (
  countryCode: string,
  first: [number, number],
  additional: [number, number],
  freeOverMinor: number | null,
): RuleSeed => ({
  countryCode,
  firstWeightGrams: first[0],
  firstFeeMinor: first[1],
  additionalWeightGrams: additional[0],
  additionalFeeMinor: additional[1],
  freeOverMinor,
});

/** The demo shop's rates (CNY fen): domestic, nearby Asia, Europe and North America/Oceania, anywhere else. */
export const DEMO_SHIPPING_RULES: RuleSeed[] = [
  rule('CN', [1000, 1200], [1000, 600], 19900),
  rule('JP', [500, 4500], [500, 1500], 49900),
  rule('SG', [500, 4500], [500, 1500], 49900),
  rule('MY', [500, 4500], [500, 1500], 49900),
  rule('GB', [500, 8800], [500, 3000], 89900),
  rule('DE', [500, 8800], [500, 3000], 89900),
  rule('FR', [500, 8800], [500, 3000], 89900),
  rule('US', [500, 9800], [500, 3500], 99900),
  rule('CA', [500, 9800], [500, 3500], 99900),
  rule('AU', [500, 9800], [500, 3500], 99900),
  rule(ANY_COUNTRY, [500, 12000], [500, 4500], null),
];

/** Writes the demo rules that are missing; never overwrites an operator's change. */
export async function seedShippingRules(db: Database): Promise<void> {
  await db.insert(shippingRules).values(DEMO_SHIPPING_RULES).onConflictDoNothing();
  keptRules.forget();
}
