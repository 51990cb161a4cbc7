import { createHash } from 'node:crypto';

/** What PayPal takes as a refund's custom_id (and Stripe as a metadata value): 127 characters of these at most. */
const TAG_TEXT = /^[A-Za-z0-9_.,-]{1,100}$/;

/**
 * The mark a refund the shop asks for carries at Stripe (metadata `shop_refund`) and PayPal
 * (`custom_id`), which their refund webhooks echo back: how such a webhook is told from a
 * refund made in the gateway's dashboard, even when it arrives before the gateway's answer to
 * our call is recorded. (Alipay echoes the refund's request number, `outRequestNo`.)
 */
export function shopRefundTag(idempotencyKey: string): string {
  const digest = createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 40);
  return `shop-refund.${TAG_TEXT.test(idempotencyKey) ? idempotencyKey : digest}`;
}

/** The idempotency key of a whole payment owed back (payments.service `refundPayment`). */
export function wholeRefundKey(paymentId: number): string {
  return `refund-payment-${paymentId}`;
}
