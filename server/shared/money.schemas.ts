import { z } from 'zod';
import { CURRENCIES } from './money';

/** A currency code the shop settles or displays in. */
export const currencyCode = z.enum(CURRENCIES);

/** An amount in the settlement currency and, converted, in the buyer's display currency. */
export const amountViewSchema = z.object({
  amount_minor: z.number().int().describe('settlement currency, minor units'),
  amount: z.string(),
  display_amount_minor: z.number().int().describe('display currency at the rate shown (frozen on orders)'),
  display_amount: z.string(),
});
export type AmountView = z.infer<typeof amountViewSchema>;
