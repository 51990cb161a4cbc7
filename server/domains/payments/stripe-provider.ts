import Stripe from 'stripe';
import type { STRIPE_PAYMENT_METHODS } from '../../shared/payment-methods';
import {
  WebhookVerificationError,
  type PaymentEvent,
  type PaymentOutcome,
  type PaymentProvider,
} from './payment-provider';
import { chargesIn } from './charge-currency';
import { shopRefundTag } from './refund-tag';

type StripeMethod = (typeof STRIPE_PAYMENT_METHODS)[number];

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  /** Tests only: where the SDK sends its requests instead of api.stripe.com. */
  apiBase?: string;
  /** The methods turned on in the shop's Stripe dashboard (STRIPE_PAYMENT_METHODS). */
  methods: readonly StripeMethod[];
}

function connectionOptions(apiBase: string | undefined): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}

function sessionOutcome(type: PaymentOutcome['type'], session: Stripe.Checkout.Session): PaymentOutcome {
  const intent = session.payment_intent;
  const paymentId = Number(session.metadata?.payment_id);
  return {
    type,
    providerRef: session.id,
    paymentId: Number.isSafeInteger(paymentId) && paymentId > 0 ? paymentId : undefined,
    amountMinor: session.amount_total ?? undefined,
    currency: session.currency?.toUpperCase(),
    chargeRef: typeof intent === 'string' ? intent : intent?.id,
  };
}

/**
 * A refund as Stripe reports it (refund.created / refund.updated, charge.refund.updated on
 * older API versions): made once it succeeded; pending, failed or cancelled ones are news the
 * shop does not act on (its own refunds are settled by Stripe's answer, or by this report).
 */
function refundEvent(eventId: string, type: string, refund: Stripe.Refund): PaymentEvent {
  const intent = typeof refund.payment_intent === 'string' ? refund.payment_intent : refund.payment_intent?.id;
  if (refund.status !== 'succeeded' || !intent)
    return { eventId, type: 'ignored', gatewayType: `${type}:${refund.status ?? 'unknown'}` };
  const tag = refund.metadata?.shop_refund;
  return {
    eventId,
    type: 'refund.succeeded',
    refundRef: refund.id,
    chargeRef: intent,
    amountMinor: refund.amount,
    currency: refund.currency.toUpperCase(),
    ...(tag ? { shopTag: tag } : {}),
  };
}

function sessionEvent(eventId: string, type: PaymentOutcome['type'], session: Stripe.Checkout.Session): PaymentEvent {
  return { eventId, ...sessionOutcome(type, session) };
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
    methodsFor: ({ currency }) => options.methods.filter((method) => chargesIn('stripe', method, currency)),
    async createCheckout(_ctx, request) {
      const method = options.methods.find((offered) => offered === request.method);
      if (!method) throw new Error(`stripe: method ${request.method} is not offered`);
      const metadata = {
        payment_id: String(request.paymentId),
        order_id: String(request.orderId),
        method,
      };
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          // One method per session: the buyer already chose it on our pay page. (API 2026-09-30
          // removed `payment_method_types`; this filter is its successor.)
          allowed_payment_method_types: [method],
          // Checkout shows WeChat Pay's QR code on the web (the only client without an app id).
          ...(method === 'wechat_pay' ? { payment_method_options: { wechat_pay: { client: 'web' as const } } } : {}),
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
      // The filter drops a method silently when the dashboard has not turned it on.
      if (!session.payment_method_types.includes(method))
        throw new Error(`stripe: ${method} is not turned on in the Stripe dashboard (STRIPE_PAYMENT_METHODS)`);
      return { providerRef: session.id, redirectUrl: session.url };
    },
    async verifyWebhook(rawBody, headers) {
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
        case 'refund.created':
        case 'refund.updated':
        case 'charge.refund.updated':
          return refundEvent(event.id, event.type, event.data.object);
        default:
          return { eventId: event.id, type: 'ignored', gatewayType: event.type };
      }
    },
    async lookupPayment(_ctx, request) {
      const session = await stripe.checkout.sessions.retrieve(request.providerRef);
      if (session.status === 'expired') return sessionOutcome('payment.failed', session);
      // A delayed method completes unpaid and settles later; until then it is pending.
      if (session.status === 'complete' && session.payment_status !== 'unpaid')
        return sessionOutcome('payment.succeeded', session);
      return 'pending';
    },
    async refund(_ctx, request) {
      if (!request.chargeRef) throw new Error(`stripe: payment ${request.paymentId} has no payment intent to refund`);
      const refund = await stripe.refunds.create(
        {
          payment_intent: request.chargeRef,
          // Without an amount Stripe refunds what is left of the charge: for money owed back
          // whole, that is what was really charged, even when it is not what the shop asked for.
          ...(request.whole ? {} : { amount: request.amountMinor }),
          // The tag comes back in the refund's webhooks, which may arrive before this answer.
          metadata: { payment_id: String(request.paymentId), shop_refund: shopRefundTag(request.idempotencyKey) },
        },
        { idempotencyKey: request.idempotencyKey },
      );
      return { refundRef: refund.id };
    },
  };
}
