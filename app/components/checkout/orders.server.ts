import { data, redirectDocument } from 'react-router';
import { translate, type Locale } from '../../../i18n';
import type { StorefrontLoadContext } from '~/lib/context';
import { PG_INTEGER_MAX } from '../../../server/shared/ids';
import { siteOrigin } from '../../../server/shared/site-origin';
import { refusalOf, refusalText } from '~/lib/action-result.server';
import { payMethodForm } from '../../../server/domains/payments/payments.schemas';

/** `?order_id=` or a route's `:id`, as an order id; anything else is a 404 page. */
export function orderIdOf(value: string | null | undefined): number {
  const id = Number(value);
  if (!Number.isInteger(id) || id < 1 || id > PG_INTEGER_MAX) throw data(null, { status: 404 });
  return id;
}

/** The buyer's own order detail; another buyer's order is a 404 page, like a missing one. */
export async function ownOrderDetail(context: StorefrontLoadContext, userId: number, id: number, locale: Locale) {
  try {
    return await context.services.orders.getOrderDetail(context.ctx, { userId, id, locale });
  } catch (error) {
    if (refusalOf(error)?.kind === 'notFound') throw data(null, { status: 404 });
    throw error;
  }
}

/**
 * Pay: opens a payment attempt with the method the buyer chose (services.payments, the same as
 * `POST /v1/pay`) and sends the browser to its page with a full document navigation (the
 * sandbox page is not a storefront route). A refusal (cancelled, already paid) comes back
 * as a message.
 */
export async function payAction(context: StorefrontLoadContext, request: Request, orderId: number, locale: Locale) {
  const form = Object.fromEntries(await request.formData());
  const chosen = payMethodForm.safeParse(form);
  if (!chosen.success)
    return { error: translate(locale, 'payments.methodUnavailable', { method: String(form.method) }) };
  try {
    const started = await context.services.payments.startPayment(context.ctx, {
      orderId,
      method: chosen.data.method,
      siteOrigin: siteOrigin(context.ctx.env, new URL(request.url).origin),
      hints: { userAgent: request.headers.get('user-agent'), mobileHint: request.headers.get('sec-ch-ua-mobile') },
    });
    return redirectDocument(started.redirectUrl);
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal) return { error: refusalText(locale, refusal) };
    throw error;
  }
}
