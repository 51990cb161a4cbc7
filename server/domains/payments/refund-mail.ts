import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { translate } from '../../../i18n';
import { refunds } from '../../db/schema';
import type { AppContext, TransactionContext } from '../../context';
import { formatPrice, isCurrency } from '../../shared/money';
import { sendMail, type MailDelivery } from '../mail/mailer';
import { orderMailData } from '../orders/order-mail';
import { enqueueEffect } from '../outbox/outbox.service';

/** The buyer's "we refunded you" email, owed through the outbox like the order emails (order-mail.ts). */
export const REFUND_MAIL_TOPIC = 'refund-mail';
export const refundMailJob = z.object({ refundId: z.number().int().positive() });
export type RefundMailJob = z.infer<typeof refundMailJob>;

export async function enqueueRefundMail(ctx: TransactionContext, refundId: number): Promise<void> {
  await enqueueEffect(ctx, { topic: REFUND_MAIL_TOPIC, payload: { refundId }, dedupeKey: `refund-mail:${refundId}` });
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Sends it in the order's language; the Message-ID is the refund's, so a resend after a crash is one message. */
export async function sendRefundMail(ctx: AppContext, job: RefundMailJob): Promise<MailDelivery | null> {
  const [refund] = await ctx.db.select().from(refunds).where(eq(refunds.id, job.refundId));
  if (!refund || refund.status !== 'succeeded') return null;
  const found = await orderMailData(ctx, refund.orderId);
  if (!found) return null;
  const { data } = found;
  const params = {
    orderNo: data.orderNo,
    amount: formatPrice(
      {
        amountMinor: refund.amountMinor,
        currency: isCurrency(refund.currency) ? refund.currency : 'CNY',
      },
      'symbol',
      data.locale,
    ),
  };
  const paragraphs = [
    translate(data.locale, 'mail.order.greeting', { name: data.buyerName }),
    translate(data.locale, 'mail.refund.body', params),
    translate(data.locale, 'mail.order.viewLink', { url: data.orderUrl }),
    translate(data.locale, 'mail.order.signature', { shop: data.shopName }),
  ];
  const domain = ctx.env.MAIL_FROM.match(/@([^>\s]+)/)?.[1] ?? 'shop.localhost';
  return sendMail(ctx, {
    to: found.to,
    messageId: `<refund-${refund.id}@${domain}>`,
    subject: translate(data.locale, 'mail.refund.subject', params),
    text: paragraphs.join('\n\n'),
    html: paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('\n'),
  });
}
