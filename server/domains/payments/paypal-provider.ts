import { chargesIn } from './charge-currency';
import type { PaymentEvent, PaymentLookup, PaymentOutcome, PaymentProvider } from './payment-provider';
import { shopRefundTag } from './refund-tag';
import { minorUnitsOf, paypalAmount } from './paypal/paypal-amount';
import {
  createPayPalClient,
  PAYPAL_API_HOSTS,
  PayPalApiError,
  paypalCapture,
  paypalRefundResource,
  type PayPalCapture,
  type PayPalEnvironment,
  type PayPalOrder,
  type PayPalRefundResource,
} from './paypal/paypal-client';
import { createPayPalWebhookVerifier, PAYPAL_CERT_ORIGINS } from './paypal/paypal-webhook';

export interface PayPalProviderOptions {
  clientId: string;
  clientSecret: string;
  webhookId: string;
  environment: PayPalEnvironment;
  /** Tests only: a local fake instead of PayPal's hosts; its origin is then the only certificate host. */
  apiBase?: string;
}

/** The checkout page's language: PayPal takes a BCP 47 tag it supports. */
const PAYPAL_LOCALES = { en: 'en-US', 'zh-cn': 'zh-CN' } as const;

function outcomeOfCapture(orderId: string, capture: PayPalCapture): PaymentOutcome | 'pending' {
  const paid = minorUnitsOf(capture.amount);
  const paymentId = Number(capture.custom_id);
  const common = {
    providerRef: orderId,
    chargeRef: capture.id,
    ...(Number.isSafeInteger(paymentId) && paymentId > 0 && { paymentId }),
  };
  if (capture.status === 'COMPLETED') {
    return {
      type: 'payment.succeeded',
      ...common,
      // An amount the shop cannot read (a currency it does not know, too many decimals) never
      // matches an order, so the payment is refunded rather than taken as whatever was asked.
      amountMinor: paid?.amountMinor ?? -1,
      currency: paid?.currency ?? capture.amount?.currency_code,
    };
  }
  if (capture.status === 'DECLINED' || capture.status === 'FAILED') return { type: 'payment.failed', ...common };
  // PENDING (PayPal is still checking the payment): its PAYMENT.CAPTURE.COMPLETED or DENIED follows.
  return 'pending';
}

/** The capture a refund came out of, from its `up` link. */
function captureIdOf(refund: PayPalRefundResource): string | undefined {
  const up = refund.links.find((link) => link.rel === 'up')?.href ?? '';
  const match = /\/v2\/payments\/captures\/([^/?#]+)$/.exec(up);
  return match ? decodeURIComponent(match[1]!) : undefined;
}

/**
 * PAYMENT.CAPTURE.REFUNDED as a refund report: the shop's own refunds carry their tag as
 * custom_id; one made in PayPal's dashboard carries none (or the capture's own), and is recorded.
 */
function refundEvent(eventId: string, resource: unknown): PaymentEvent {
  const ignored = (why: string) => ({
    eventId,
    type: 'ignored' as const,
    gatewayType: `PAYMENT.CAPTURE.REFUNDED:${why}`,
  });
  const parsed = paypalRefundResource.safeParse(resource);
  if (!parsed.success) return ignored('unreadable');
  const refund = parsed.data;
  const captureId = captureIdOf(refund);
  const amount = minorUnitsOf(refund.amount);
  if (refund.status !== 'COMPLETED') return ignored(refund.status);
  if (!captureId || !amount) return ignored('without-capture-or-amount');
  const tag = refund.custom_id?.startsWith('shop-refund.') ? refund.custom_id : undefined;
  return {
    eventId,
    type: 'refund.succeeded',
    refundRef: refund.id,
    chargeRef: captureId,
    amountMinor: amount.amountMinor,
    currency: amount.currency,
    ...(tag ? { shopTag: tag } : {}),
  };
}

/** Where an Orders v2 order stands, in the shop's terms. */
function outcomeOfOrder(order: PayPalOrder): PaymentLookup {
  const capture = order.purchase_units[0]?.payments?.captures[0];
  if (capture) return outcomeOfCapture(order.id, capture);
  if (order.status === 'VOIDED') return { type: 'payment.failed', providerRef: order.id };
  return 'pending';
}

/**
 * PayPal Orders v2 through a thin client (ADR 0142): createCheckout creates an order with
 * intent CAPTURE and sends the buyer to PayPal's approval page; the buyer's return and the
 * reconciliation job both call lookupPayment, which captures an approved order (idempotent by
 * PayPal-Request-Id) and reports the capture; PAYMENT.CAPTURE.* webhooks are verified here,
 * and the payments service applies every outcome once.
 */
export function createPayPalProvider(options: PayPalProviderOptions): PaymentProvider {
  const apiBase = options.apiBase ?? PAYPAL_API_HOSTS[options.environment];
  const client = createPayPalClient({ clientId: options.clientId, clientSecret: options.clientSecret, apiBase });
  const verifyDelivery = createPayPalWebhookVerifier({
    webhookId: options.webhookId,
    certOrigins: options.apiBase ? [new URL(options.apiBase).origin] : PAYPAL_CERT_ORIGINS[options.environment],
  });

  async function capture(orderId: string): Promise<PaymentLookup> {
    try {
      // One request id per order: a repeat (the return and the job at once, a retry) gets the same capture.
      return outcomeOfOrder(await client.captureOrder(orderId, `capture-${orderId}`));
    } catch (error) {
      if (!(error instanceof PayPalApiError)) throw error;
      if (error.issue === 'ORDER_ALREADY_CAPTURED') return outcomeOfOrder(await client.getOrder(orderId));
      // The buyer's funding was refused: this attempt is over; the order stays payable.
      if (error.issue === 'INSTRUMENT_DECLINED') return { type: 'payment.failed', providerRef: orderId };
      throw error;
    }
  }

  return {
    name: 'paypal',
    methodsFor: (query) => (chargesIn('paypal', 'paypal', query.currency) ? ['paypal'] : []),
    async createCheckout(_ctx, request) {
      const order = await client.createOrder(
        {
          intent: 'CAPTURE',
          purchase_units: [
            {
              reference_id: `order-${request.orderId}`,
              custom_id: String(request.paymentId),
              // Unique across the PayPal account for good (PayPal refuses a repeat): our order number and attempt.
              invoice_id: `${request.description}-${request.paymentId}`,
              description: request.description,
              amount: paypalAmount(
                { amountMinor: request.amountMinor, currency: request.currency },
                request.amountParts,
              ),
            },
          ],
          payment_source: {
            paypal: {
              experience_context: {
                locale: PAYPAL_LOCALES[request.locale],
                landing_page: 'LOGIN',
                shipping_preference: 'NO_SHIPPING',
                user_action: 'PAY_NOW',
                return_url: request.successUrl,
                cancel_url: request.failUrl,
              },
            },
          },
        },
        `checkout-payment-${request.paymentId}`,
      );
      const approve = order.links.find((link) => link.rel === 'payer-action' || link.rel === 'approve');
      if (!approve) throw new Error(`paypal: order ${order.id} has no approval link`);
      return { providerRef: order.id, redirectUrl: approve.href };
    },
    async verifyWebhook(rawBody, headers) {
      const event = await verifyDelivery(rawBody, headers);
      const ignored = { eventId: event.id, type: 'ignored' as const, gatewayType: event.event_type };
      if (event.event_type === 'PAYMENT.CAPTURE.REFUNDED') return refundEvent(event.id, event.resource);
      if (event.event_type !== 'PAYMENT.CAPTURE.COMPLETED' && event.event_type !== 'PAYMENT.CAPTURE.DENIED')
        return ignored;
      const parsed = paypalCapture.safeParse(event.resource);
      const orderId = parsed.data?.supplementary_data?.related_ids?.order_id;
      if (!parsed.success || !orderId) return { ...ignored, gatewayType: `${event.event_type}:without-order` };
      const outcome = outcomeOfCapture(orderId, parsed.data);
      return outcome === 'pending' ? ignored : { ...outcome, eventId: event.id };
    },
    // PayPal sends the buyer back with its order id as `token`, unsigned: only a prompt to ask
    // PayPal (lookupPayment), which captures and reports; the return itself proves nothing.
    returnReference: (params) => params.token ?? null,
    async lookupPayment(_ctx, request) {
      let order: PayPalOrder;
      try {
        order = await client.getOrder(request.providerRef);
      } catch (error) {
        // PayPal forgets orders nobody approved (after about three hours): that attempt is over.
        if (error instanceof PayPalApiError && error.status === 404)
          return { type: 'payment.failed', providerRef: request.providerRef };
        throw error;
      }
      return order.status === 'APPROVED' ? capture(order.id) : outcomeOfOrder(order);
    },
    async refund(_ctx, request) {
      if (!request.chargeRef) throw new Error(`paypal: payment ${request.paymentId} has no capture to refund`);
      // Without an amount PayPal refunds what is left of the capture: for money owed back whole,
      // that is what was really captured, even when it is not what the shop asked for.
      const refund = await client.refundCapture(
        request.chargeRef,
        {
          ...(!request.whole && {
            amount: paypalAmount({ amountMinor: request.amountMinor, currency: request.currency }, undefined),
          }),
          // Comes back in PAYMENT.CAPTURE.REFUNDED, which may arrive before this answer.
          custom_id: shopRefundTag(request.idempotencyKey),
        },
        request.idempotencyKey,
      );
      return { refundRef: refund.id };
    },
  };
}
