import { translator } from '../../../i18n';
import type { AppContext } from '../../shared/context';
import { formatPrice, isCurrency } from '../../shared/money';
import { sendMail } from '../mail/mailer';
import { getOrderForPayment } from '../orders/order-payment.service';
import type { payments } from '../../db/schema';
import { escapeHtml } from './html';

/** "Payment received", in the language the buyer paid in. */
export async function sendPaymentReceivedMail(ctx: AppContext, payment: typeof payments.$inferSelect): Promise<void> {
  const t = translator(payment.locale);
  const order = await getOrderForPayment(ctx, { orderId: payment.orderId });
  if (!order) return;
  const orderNo = order.orderNo;
  const amount = isCurrency(payment.currency)
    ? formatPrice({ amountMinor: payment.amountMinor, currency: payment.currency })
    : `${payment.amountMinor} ${payment.currency}`;
  const lines = [t('mail.paymentReceived.greeting'), t('mail.paymentReceived.body', { amount, orderNo }), t('mail.paymentReceived.signoff')];
  await sendMail(ctx, {
    to: order.userEmail,
    subject: t('mail.paymentReceived.subject', { orderNo }),
    text: lines.join('\n\n'),
    html: lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n'),
  });
}
