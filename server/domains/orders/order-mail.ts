import { eq, sql, type SQL } from 'drizzle-orm';
import { isLocale, pickText, translate, type Locale } from '../../../i18n';
import { orders, users, type orderItems } from '../../db/schema';
import type { AppContext, TransactionContext } from '../../context';
import { preparedPerDatabase } from '../../db/prepared';
import { formatPrice, isCurrency } from '../../shared/money';
import { siteOrigin } from '../../shared/site-origin';
import { dutiesNote, orderDuties, type OrderDutyLine } from '../duties/duties.service';
import { sendMail, type MailDelivery, type OutgoingMail } from '../mail/mailer';
import { enqueueEffect, enqueueEffectsWrite } from '../outbox/outbox.service';
import type { SiteSettings } from '../site-settings/site-settings.defaults';
import { getSiteSettings } from '../site-settings/site-settings.service';
import { findCarrier, trackingUrl } from '../tracking/carriers';
import type { OrderMailJob, PaidWithView } from './orders.schemas';
import { itemsOf } from './orders.service';
import { paidWithView, paymentsThatPaid, type PaidWith } from './paid-with';
import { inListedIds } from '../../db/listed-ids';

export type OrderMailKind = OrderMailJob['kind'];
type OrderItemRow = typeof orderItems.$inferSelect;
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

const ordersWithBuyers = preparedPerDatabase((db) =>
  db
    .select({ order: orders, email: users.email, username: users.username })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(inListedIds(orders.id, sql`${sql.placeholder('orderIds')}`))
    .prepare('order_mail_orders'),
);

/** An order email's address and what it shows. */
export interface OrderMailRead {
  to: string;
  data: OrderMailData;
}

/** What one order's emails show, and to whom they go; null when the order is gone. */
export async function orderMailData(ctx: AppContext, orderId: number): Promise<OrderMailRead | null> {
  return mailOf(await orderMailsData(ctx, [orderId]), orderId);
}

/** What `orderMailsData` read for each order: its mail, or why it could not be made. */
export type OrderMailReads = ReadonlyMap<number, OrderMailRead | { failed: unknown }>;

/** One order's mail out of a batch read: null when the order is gone; throws what spoiled that order alone. */
function mailOf(reads: OrderMailReads, orderId: number): OrderMailRead | null {
  const found = reads.get(orderId);
  if (found && 'failed' in found) throw found.failed;
  return found ?? null;
}

/**
 * `orderMailData` for many orders in three or four statements, however many there are: the
 * outbox worker reads a claimed batch of order emails at once (its handler's `read`).
 */
export async function orderMailsData(ctx: AppContext, orderIds: readonly number[]): Promise<OrderMailReads> {
  const found = new Map<number, OrderMailRead | { failed: unknown }>();
  if (orderIds.length === 0) return found;
  const rows = await ordersWithBuyers(ctx.db).execute({ orderIds: [...new Set(orderIds)] });
  const ids = rows.map((row) => row.order.id);
  const [items, duties, paid, settings] = await Promise.all([
    itemsOf(ctx, ids),
    orderDuties(ctx, ids),
    paymentsThatPaid(
      ctx,
      rows.map((row) => row.order),
    ),
    getSiteSettings(ctx),
  ]);
  for (const row of rows) {
    // An order whose mail cannot be made (a row imported without an address) fails its own
    // email only, not the others read with it.
    try {
      found.set(
        row.order.id,
        mailDataOf(row, {
          items: items.get(row.order.id) ?? [],
          duties: duties.get(row.order.id) ?? [],
          paidWith: paid.get(row.order.id) ?? null,
          settings,
          base: siteOrigin(ctx.env, ''),
        }),
      );
    } catch (error) {
      found.set(row.order.id, { failed: error });
    }
  }
  return found;
}

function mailDataOf(
  row: { order: typeof orders.$inferSelect; email: string; username: string },
  read: {
    items: ReadonlyArray<{ productName: OrderItemRow['productName']; quantity: number }>;
    duties: readonly OrderDutyLine[];
    paidWith: PaidWith | null;
    settings: SiteSettings;
    base: string;
  },
): OrderMailRead {
  const { order } = row;
  const { items, paidWith, settings, base } = read;
  const locale: Locale = isLocale(order.locale) ? order.locale : 'zh-cn';
  const currency = isCurrency(order.currency) ? order.currency : 'CNY';
  const dutyLines = read.duties;
  const price = (amountMinor: number) => formatPrice({ amountMinor, currency }, 'symbol', locale);
  const estimateMinor = dutyLines.reduce((sum, line) => sum + line.estimateMinor, 0);
  const carrier = findCarrier(order.carrierCode);
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
export async function sendOrderMail(
  ctx: AppContext,
  job: OrderMailJob,
  reads: OrderMailReads,
): Promise<MailDelivery | null> {
  const found = mailOf(reads, job.orderId);
  if (!found) return null;
  return sendMail(ctx, {
    to: found.to,
    messageId: `<order-${job.orderId}-${job.kind}@${mailDomain(ctx)}>`,
    ...renderOrderMail(job.kind, found.data),
  });
}

/** What `sendOrderMail` needs for a claimed batch of order emails, read at once (the outbox handler's `read`). */
export function readOrderMails(ctx: AppContext, jobs: readonly OrderMailJob[]) {
  return orderMailsData(
    ctx,
    jobs.map((job) => job.orderId),
  );
}

function mailDomain(ctx: AppContext): string {
  const address = ctx.env.MAIL_FROM.match(/@([^>\s]+)/);
  return address?.[1] ?? 'shop.localhost';
}
