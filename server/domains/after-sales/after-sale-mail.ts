import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { pickText, translate, type MessageKey } from '../../../i18n';
import { afterSales, refunds } from '../../db/schema';
import type { AppContext, TransactionContext } from '../../context';
import { formatPrice, isCurrency } from '../../shared/money';
import { siteOrigin } from '../../shared/site-origin';
import { sendMail, type MailDelivery } from '../mail/mailer';
import { orderMailData } from '../orders/order-mail';
import { enqueueEffect } from '../outbox/outbox.service';
import { findCarrier } from '../tracking/carriers';

/**
 * The buyer's emails at each step of a case, in the order's language, owed through the outbox
 * like the order emails: request received, approved, rejected, parcel received, refunded,
 * replacement shipped, closed unsent.
 */
export const AFTER_SALE_MAIL_KINDS = [
  'requested',
  'approved',
  'rejected',
  'received',
  'refunded',
  'exchangeShipped',
  'closed',
] as const;
export type AfterSaleMailKind = (typeof AFTER_SALE_MAIL_KINDS)[number];

export const AFTER_SALE_MAIL_TOPIC = 'after-sale-mail';
export const afterSaleMailJob = z.object({
  caseId: z.number().int().positive(),
  kind: z.enum(AFTER_SALE_MAIL_KINDS),
  /** The timeline row the mail tells of: a case rejected twice (after an appeal) is told twice. */
  historyId: z.number().int().positive(),
});
export type AfterSaleMailJob = z.infer<typeof afterSaleMailJob>;

export async function enqueueAfterSaleMail(ctx: TransactionContext, job: AfterSaleMailJob): Promise<void> {
  await enqueueEffect(ctx, {
    topic: AFTER_SALE_MAIL_TOPIC,
    payload: job,
    dedupeKey: `after-sale-mail:${job.caseId}:${job.kind}:${job.historyId}`,
  });
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Sends one; the Message-ID is the timeline row's, so a resend after a crash is the same message. */
export async function sendAfterSaleMail(ctx: AppContext, job: AfterSaleMailJob): Promise<MailDelivery | null> {
  const [row] = await ctx.db.select().from(afterSales).where(eq(afterSales.id, job.caseId));
  if (!row) return null;
  const found = await orderMailData(ctx, row.orderId);
  if (!found) return null;
  const { data } = found;
  const locale = data.locale;
  const dateText = (date: Date | null) =>
    date
      ? new Intl.DateTimeFormat(locale === 'zh-cn' ? 'zh-CN' : 'en-GB', {
          dateStyle: 'medium',
          timeZone: 'UTC',
        }).format(date)
      : '';
  const paidBack = (
    job.kind === 'refunded' ? await ctx.db.select().from(refunds).where(eq(refunds.afterSaleId, row.id)) : []
  ).filter((refund) => refund.status === 'succeeded');
  const currency = paidBack.map((refund) => refund.currency).find(isCurrency) ?? 'CNY';
  const refunded = paidBack.reduce((sum, refund) => sum + refund.amountMinor, 0);
  const carrier = findCarrier(row.exchangeCarrierCode);
  const params = {
    caseNo: row.caseNo,
    orderNo: data.orderNo,
    type: translate(locale, `afterSale.type.${row.type}`),
    hours: ctx.env.AFTER_SALE_ANSWER_HOURS,
    address: ctx.env.AFTER_SALE_RETURN_ADDRESS,
    date: dateText(row.deadline),
    rejection: row.rejection ? translate(locale, `afterSale.rejection.${row.rejection}`) : '',
    amount: formatPrice({ amountMinor: refunded, currency }, 'symbol', locale),
    carrier: carrier ? pickText(carrier.name, locale) : (row.exchangeCarrierCode ?? ''),
    trackingNo: row.exchangeTrackingNo ?? '',
  };
  const body: MessageKey[] = [`mail.afterSale.body.${job.kind}`];
  if (job.kind === 'approved' && row.state === 'awaiting_parcel') body.push('mail.afterSale.body.sendParcel');
  if (job.kind === 'rejected' && !row.appealed && row.deadline) body.push('mail.afterSale.body.appeal');
  const shopMessage =
    (job.kind === 'approved' || job.kind === 'rejected') && row.shopMessage
      ? [translate(locale, 'mail.afterSale.shopMessage', { message: row.shopMessage })]
      : [];
  const paragraphs = [
    translate(locale, 'mail.order.greeting', { name: data.buyerName }),
    ...body.map((key) => translate(locale, key, params)),
    ...shopMessage,
    translate(locale, 'mail.afterSale.viewLink', {
      url: `${siteOrigin(ctx.env, '')}/${locale}/my/after-sale/${row.id}`,
    }),
    translate(locale, 'mail.order.signature', { shop: data.shopName }),
  ];
  const domain = ctx.env.MAIL_FROM.match(/@([^>\s]+)/)?.[1] ?? 'shop.localhost';
  return sendMail(ctx, {
    to: found.to,
    messageId: `<after-sale-${row.id}-${job.kind}-${job.historyId}@${domain}>`,
    subject: translate(locale, `mail.afterSale.subject.${job.kind}`, params),
    text: paragraphs.join('\n\n'),
    html: paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('\n'),
  });
}
