import { z } from 'zod';
import { amountViewSchema } from '../../shared/money.schemas';

/** One order line's duties and taxes: figures in the destination's currency (`currency`), as customs sees them. */
const dutyLineView = z.object({
  sku_id: z.number().int(),
  hs_code: z.string().nullable(),
  origin_country: z.string().nullable(),
  customs_value_minor: z.number().int().describe('destination currency, minor units'),
  duty_rate_bps: z.number().int().describe('duty rate in basis points (1250 = 12.5%)'),
  duty_minor: z.number().int(),
  tax_rate_bps: z.number().int().describe('VAT/GST rate in basis points'),
  tax_minor: z.number().int(),
  fee_minor: z.number().int().describe('carrier or customs handling fee share'),
  charged: amountViewSchema.describe('paid with the order'),
  estimate: amountViewSchema.describe('payable to the carrier on delivery'),
});

/**
 * The duties and import taxes of an order (`POST /v2/order/confirm` quotes them, the order keeps
 * them). `charged` is part of the order total; `estimate` is not (null when it cannot be shown).
 */
export const dutiesView = z.object({
  incoterm: z.enum(['DDP', 'DDU']).describe('DDP: the shop pays them at the border; DDU: the buyer pays the carrier'),
  estimate_hidden: z.boolean().describe('an item has no HS code: no estimate is shown and nothing is charged'),
  rules_version: z.string().describe('the import rules used, e.g. DE#2@2026-07-01'),
  currency: z.string().length(3).describe('the destination currency the line figures are in'),
  rate: z.string().describe('destination units per settlement unit, six decimals'),
  label: z.string(),
  note: z
    .string()
    .describe("'nothing more to pay on delivery', 'estimated ..., payable to the carrier on delivery', ..."),
  charged: amountViewSchema,
  estimate: amountViewSchema.nullable(),
  lines: z.array(dutyLineView),
});
export type DutiesView = z.infer<typeof dutiesView>;
