import { eq, sql, type SQL } from 'drizzle-orm';
import { isLocale, pickText, translate, type Locale } from '../../../i18n';
import { orders, users } from '../../db/schema';
import type { AppContext, TransactionContext } from '../../context';
import { preparedPerDatabase } from '../../db/prepared';
import { formatPrice, isCurrency } from '../../shared/money';
import { siteOrigin } from '../../shared/site-origin';
import { dutiesNote, orderDuties } from '../duties/duties.service';
import { sendMail, type MailDelivery, type OutgoingMail } from '../mail/mailer';
import { enqueueEffect, enqueueEffectsWrite } from '../outbox/outbox.service';
import { getSiteSettings } from '../site-settings/site-settings.service';
import { findCarrier, trackingUrl } from '../tracking/carriers';
import type { OrderMailJob, PaidWithView } from './orders.schemas';
import { itemsOf } from './orders.service';
import { paidWithView, paymentThatPaid } from './paid-with';

export type OrderMailKind = OrderMailJob['kind'];
export const ORDER_MAIL_TOPIC = 'order-mail';

export interface OrderMailData {
  locale: Locale;
  shopName: string;
  buyerName: string;
  orderNo: string;
  /** '￥128.00' in the settlement currency. */
  total: string;
  deadline: string;
  items: Array<{ name: string; quantity: number }>;
  /** What the gateway took, once paid: '€12.97 by PayPal' (the buyer's statement shows this, not `total`). */
  paid?: string;
  /** The duties line of a parcel abroad: what was paid with the order and what is left for the carrier. */
  duties?: { charged: string; note: string };
  orderUrl: string;
  carrier?: string;
  trackingNo?: string;
  trackingUrl?: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The order emails in the order's language, as text and simple HTML. Pure, so the
 * payments domain can render its "payment received" mail with kind 'paid'.
 */
export function renderOrderMail(kind: OrderMailKind, data: OrderMailData): Omit<OutgoingMail, 'to'> {
  const t = (key: Parameters<typeof translate>[1], params?: Record<string, string | number>) =>
    translate(data.locale, key, params);
  const params = {
    orderNo: data.orderNo,
    total: data.total,
    paid: data.paid ?? data.total,
    deadline: data.deadline,
    carrier: data.carrier ?? '',
    trackingNo: data.trackingNo ?? '',
  };
  const paragraphs = [
    t('mail.order.greeting', { name: data.buyerName }),
    t(`mail.order.${kind}.body`, params),
    [t('mail.order.items'), ...data.items.map((item) => `- ${item.name} x ${item.quantity}`)].join('\n'),
    ...(data.duties && kind !== 'shipped'
      ? [`${t('duties.mailLine', { amount: data.duties.charged })}\n${data.duties.note}`]
      : []),
    ...(kind === 'shipped' && data.trackingUrl ? [t('mail.order.trackLink', { url: data.trackingUrl })] : []),
    t('mail.order.viewLink', { url: data.orderUrl }),
    t('mail.order.signature', { shop: data.shopName }),
  ];
  return {
    subject: t(`mail.order.${kind}.subject`, params),
    text: paragraphs.join('\n\n'),
    html: paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`).join('\n'),
  };
}

// Built once: a formatter costs more to make than the rest of the mail's data.
const DEADLINE_FORMATS: Record<Locale, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }),
  'zh-cn': new Intl.DateTimeFormat('zh-CN', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }),
};

const orderWithBuyer = preparedPerDatabase((db) =>
  db
    .select({ order: orders, email: users.email, username: users.username })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, sql.placeholder('orderId')))
    .prepare('order_mail_order'),
);

/** Gathers what the mail shows from the order and sends it to the buyer. */
export async function orderMailData(
  ctx: AppContext,
  orderId: number,
): Promise<{ to: string; data: OrderMailData } | null> {
  const [row] = await orderWithBuyer(ctx.db).execute({ orderId });
  if (!row) return null;
  const { order } = row;
  const locale: Locale = isLocale(order.locale) ? order.locale : 'zh-cn';
  const [items, duties, paidWith] = await Promise.all([
    itemsOf(ctx, [orderId]).then((lines) => lines.get(orderId) ?? []),
    orderDuties(ctx, [orderId]),
    paymentThatPaid(ctx, order),
  ]);
  const settings = await getSiteSettings(ctx);
  const currency = isCurrency(order.currency) ? order.currency : 'CNY';
  const dutyLines = duties.get(orderId) ?? [];
  const price = (amountMinor: number) => formatPrice({ amountMinor, currency }, 'symbol', locale);
  const estimateMinor = dutyLines.reduce((sum, line) => sum + line.estimateMinor, 0);
  const carrier = findCarrier(order.carrierCode);
  const base = siteOrigin(ctx.env, '');
  return {
    to: row.email,
    data: {
      locale,
      shopName: pickText(settings.shop_name, locale),
      buyerName: order.address.contact_name || row.username,
      orderNo: order.orderNo,
      total: formatPrice({ amountMinor: order.totalMinor, currency }, 'symbol', locale),
      ...(paidWith ? { paid: paidText(paidWithView(paidWith, locale), locale) } : {}),
      deadline: `${DEADLINE_FORMATS[locale].format(order.paymentDeadline)} UTC`,
      items: items.map((item) => ({ name: pickText(item.productName, locale), quantity: item.quantity })),
      ...(dutyLines[0]
        ? {
            duties: {
              charged: price(order.dutiesMinor),
              note: dutiesNote(locale, {
                estimateHidden: dutyLines[0].estimateHidden,
                chargedMinor: order.dutiesMinor,
                estimateMinor,
                estimateText: price(estimateMinor),
              }),
            },
          }
        : {}),
      orderUrl: `${base}/${locale}/my/order/${order.id}`,
      ...(carrier && order.trackingNo
        ? {
            carrier: pickText(carrier.name, locale),
            trackingNo: order.trackingNo,
            trackingUrl: trackingUrl(carrier.code, order.trackingNo),
          }
        : {}),
    },
  };
}

function paidText(paid: PaidWithView, locale: Locale): string {
  return translate(locale, 'mail.order.paidWith', { amount: paid.charged_text, method: paid.method_name });
}

/**
 * Owes the buyer an order email, in the caller's transaction: the outbox worker
 * (server/jobs/outbox-worker.ts) sends it once the change commits, retrying until the mail
 * server takes it, on whichever server copy claims it first.
 */
export async function enqueueOrderMail(ctx: TransactionContext, job: OrderMailJob): Promise<void> {
  await enqueueEffect(ctx, {
    topic: ORDER_MAIL_TOPIC,
    payload: job,
    dedupeKey: orderMailDedupeKey(job),
  });
}

const orderMailDedupeKey = (job: OrderMailJob) => `order-mail:${job.orderId}:${job.kind}`;

/**
 * `enqueueOrderMail` as part of one statement (checkout's place-order), for each order in
 * `placedOrders` (a relation with an `id` column); its dedupe key is the same.
 */
export function orderMailWrite(placedOrders: SQL, kind: OrderMailKind): SQL {
  return enqueueEffectsWrite(
    ORDER_MAIL_TOPIC,
    sql`select jsonb_build_object('orderId', placed.id, 'kind', ${kind}::text) as payload,
      'order-mail:' || placed.id || ':' || ${kind}::text as dedupe_key from ${placedOrders} as placed`,
  );
}

/**
 * Sends one order email. Its Message-ID is made from the order and the kind, so a mail sent
 * again after a crash between the mail server's acceptance and our record of it is the same
 * message to the buyer's mailbox, which shows it once.
 */
export async function sendOrderMail(ctx: AppContext, job: OrderMailJob): Promise<MailDelivery | null> {
  const found = await orderMailData(ctx, job.orderId);
  if (!found) return null;
  return sendMail(ctx, {
    to: found.to,
    messageId: `<order-${job.orderId}-${job.kind}@${mailDomain(ctx)}>`,
    ...renderOrderMail(job.kind, found.data),
  });
}

function mailDomain(ctx: AppContext): string {
  const address = ctx.env.MAIL_FROM.match(/@([^>\s]+)/);
  return address?.[1] ?? 'shop.localhost';
}
