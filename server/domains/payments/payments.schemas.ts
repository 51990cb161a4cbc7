import { z } from 'zod';
import { payDevice } from './buyer-device';
import { rowId } from '../../shared/ids.schemas';
import { PAYMENT_METHODS, PAYMENT_PROVIDERS } from './payment-provider';
import { PAYMENT_STATES } from '../../db/schema';
import { currencyCode } from '../../shared/money.schemas';

/** A positive id, as a JSON number or a numeric string; a missing one is "required", not "not a number". */
const id = z.preprocess((value) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value), rowId);

/**
 * `POST /v1/pay`. Strict: an amount or currency sent by the client is refused, never
 * read; the charge always comes from the order.
 */
export const payBody = z.strictObject({
  order_id: id,
  method: z.enum(PAYMENT_METHODS).optional().describe('what the buyer chose; unset: the first method offered'),
  provider: z.enum(PAYMENT_PROVIDERS).optional().describe('older clients: the gateway, when no method is named'),
  device: payDevice
    .optional()
    .describe(
      'which gateway page suits the buyer (Alipay: page pay or mobile-web pay); unset: read from the User-Agent',
    ),
});

/** The pay page's form: the method the buyer picked (the order is in the page's address). */
export const payMethodForm = payBody.pick({ method: true });

export const orderIdParams = z.object({ id });

/** A method the pay page offers and the currency it charges (ADR 0144). */
export const payMethodOption = z.object({
  method: z.enum(PAYMENT_METHODS),
  charge_currency: currencyCode.describe(
    "the buyer's display currency where the method takes it, else the settlement currency",
  ),
});
export type PayMethodOption = z.infer<typeof payMethodOption>;

export const payAnswer = z.object({ payment_id: z.number().int(), redirect_url: z.string() });

export const payStatusAnswer = z.object({
  order_id: z.number().int(),
  order_status: z.number().int().describe('SPEC section 4: 1 pending payment, 10 pending shipment, 60 cancelled ...'),
  pay_status: z.number().int().describe('1 pending, 2 paid, 3 cancelled'),
  payment_id: z.number().int().nullable().describe('the latest payment attempt'),
  payment_status: z.enum(PAYMENT_STATES).nullable(),
});

export type PaymentStatusView = z.infer<typeof payStatusAnswer>;

/**
 * What a verified webhook did (the gateway only needs a 200; the outcome helps reading logs and
 * tests). `refund_confirmed`: a refund the shop asked for, reported before its answer was
 * recorded; `refunded`: a refund made in the gateway's dashboard, recorded (refund-events.ts).
 */
const WEBHOOK_OUTCOMES = [
  'duplicate',
  'ignored',
  'held',
  'stale',
  'paid',
  'failed',
  'refund_due',
  'refund_confirmed',
  'refunded',
] as const;
export type WebhookOutcome = (typeof WEBHOOK_OUTCOMES)[number];

export const webhookAnswer = z.object({ received: z.literal(true), outcome: z.enum(WEBHOOK_OUTCOMES) });

export const sandboxSessionParams = z.object({ session: z.string().regex(/^cs_sbx_[\w-]{10,60}$/) });
