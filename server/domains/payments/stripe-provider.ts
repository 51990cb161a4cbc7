import Stripe from 'stripe';
import { WebhookVerificationError, type PaymentEvent, type PaymentProvider } from './payment-provider';

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  /** Tests only: where the SDK sends its requests instead of api.stripe.com. */
  apiBase?: string;
}

function connectionOptions(apiBase: string | undefined): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}

function sessionEvent(
  eventId: string,
  type: 'payment.succeeded' | 'payment.failed',
  session: Stripe.Checkout.Session,
): PaymentEvent {
  const intent = session.payment_intent;
  return {
    eventId,
    type,
    providerRef: session.id,
    amountMinor: session.amount_total ?? undefined,
    currency: session.currency?.toUpperCase(),
    chargeRef: typeof intent === 'string' ? intent : intent?.id,
  };
}

/**
 * Stripe Checkout through the official SDK: a hosted Checkout Session per attempt, webhooks
 * verified with `stripe.webhooks.constructEvent`, refunds against the payment intent.
 * Amounts are already integer minor units, which is what Stripe expects (JPY has none).
 */
export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  const stripe = new Stripe(options.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...connectionOptions(options.apiBase),
  });
  return {
    name: 'stripe',
    async createCheckout(_ctx, request) {
      const metadata = { payment_id: String(request.paymentId), order_id: String(request.orderId) };
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: request.currency.toLowerCase(),
                unit_amount: request.amountMinor,
                product_data: { name: request.description },
              },
            },
          ],
          success_url: request.successUrl,
          cancel_url: request.failUrl,
          client_reference_id: String(request.paymentId),
          metadata,
          payment_intent_data: { metadata },
          locale: request.locale === 'zh-cn' ? 'zh' : 'en',
        },
        // A retried create (network hiccup) returns the same session instead of a second one.
        { idempotencyKey: `checkout-payment-${request.paymentId}` },
      );
      if (!session.url) throw new Error(`stripe: checkout session ${session.id} has no url`);
      return { providerRef: session.id, redirectUrl: session.url };
    },
    verifyWebhook(rawBody, headers) {
      const signature = headers['stripe-signature'];
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          rawBody,
          (Array.isArray(signature) ? signature[0] : signature) ?? '',
          options.webhookSecret,
        );
      } catch (error) {
        throw new WebhookVerificationError((error as Error).message);
      }
      switch (event.type) {
        case 'checkout.session.completed':
          // Delayed methods (bank debits) complete unpaid and report later with async_payment_*.
          return event.data.object.payment_status === 'unpaid'
            ? { eventId: event.id, type: 'ignored', gatewayType: `${event.type}:unpaid` }
            : sessionEvent(event.id, 'payment.succeeded', event.data.object);
        case 'checkout.session.async_payment_succeeded':
          return sessionEvent(event.id, 'payment.succeeded', event.data.object);
        case 'checkout.session.async_payment_failed':
        case 'checkout.session.expired':
          return sessionEvent(event.id, 'payment.failed', event.data.object);
        default:
          return { eventId: event.id, type: 'ignored', gatewayType: event.type };
      }
    },
    async refund(_ctx, request) {
      if (!request.chargeRef) throw new Error(`stripe: payment ${request.paymentId} has no payment intent to refund`);
      const refund = await stripe.refunds.create(
        {
          payment_intent: request.chargeRef,
          amount: request.amountMinor,
          metadata: { payment_id: String(request.paymentId) },
        },
        { idempotencyKey: request.idempotencyKey },
      );
      return { refundRef: refund.id };
    },
  };
}
