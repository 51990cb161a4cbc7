import type { Locale } from '../../../i18n/locales';
import type { AppContext } from '../../context';
import type { Currency } from '../../shared/money';
import type { PayDevice } from './buyer-device';
import {
  PAYMENT_METHODS,
  PAYMENT_PROVIDERS,
  type PaymentMethodName,
  type PaymentProviderName,
} from '../../shared/payment-methods';

/*
 * How a gateway plugs into the shop (docs/decisions/0141-payment-methods-and-event-inbox.md).
 *
 * A *provider* is a gateway the shop has a contract with (sandbox, Stripe, PayPal, Alipay); a
 * *method* is what the buyer picks on the pay page (card, PayPal, Alipay, WeChat Pay, the
 * sandbox). One provider may serve several methods (Stripe: card, alipay, wechat_pay), and one
 * method may be served by several providers (alipay: Alipay directly or through Stripe); the
 * registry (payment-providers.ts) hands each method to one provider, preferring the dedicated one.
 *
 * To add a provider:
 * 1. Write `create<Name>Provider(options): PaymentProvider` in `<name>-provider.ts`; it only
 *    talks to its gateway. The payments service owns the shop's tables and order changes.
 * 2. Add its branch to `build` in payment-providers.ts: return null unless its keys are set.
 *    Add its keys to server/shared/env.ts (a test-only `<NAME>_API_BASE` is refused in
 *    production, like STRIPE_API_BASE).
 * 3. Its webhook is served at `POST /v1/pay/webhook/<name>` as soon as `build` returns it
 *    (raw body, any content type, no CSRF token), so tell the gateway that address.
 * 4. Give it a local fake in testing/<name>-fake.ts and the test battery Stripe has.
 */

export { PAYMENT_METHODS, PAYMENT_PROVIDERS, type PaymentMethodName, type PaymentProviderName };

/** Who is paying for what: all a provider needs to say which of its methods fit. */
export interface MethodQuery {
  /** The currency the order is charged in. */
  currency: Currency;
  /** The buyer's country, ISO 3166-1 alpha-2 (the order's delivery country). */
  country: string;
}

/** What an order's total is made of, in minor units of its currency: goods + shipping + duties - discount. */
export interface AmountParts {
  goodsMinor: number;
  shippingMinor: number;
  discountMinor: number;
  /** Duties and import taxes collected at checkout (0 when none are). */
  dutiesMinor: number;
}

export interface CheckoutRequest {
  paymentId: number;
  orderId: number;
  /** One of the methods `methodsFor` offered for this currency and country; already checked. */
  method: PaymentMethodName;
  amountMinor: number;
  currency: Currency;
  /** The parts of `amountMinor`, for gateways that show a breakdown (PayPal); unset: the total alone. */
  amountParts?: AmountParts;
  /** The buyer's country, ISO 3166-1 alpha-2. */
  country: string;
  locale: Locale;
  /** The buyer's device, for gateways with a page per device (Alipay: page pay or mobile-web pay); unset: desktop. */
  device?: PayDevice;
  /** What the gateway page shows the buyer (the order number). */
  description: string;
  /** Absolute URLs the gateway sends the buyer back to. */
  successUrl: string;
  failUrl: string;
}

export interface CheckoutSession {
  /**
   * The gateway's id for this checkout, kept as `payments.provider_ref`: webhooks and
   * `lookupPayment` find the payment by it. Unique per provider.
   */
  providerRef: string;
  redirectUrl: string;
}

/** A payment's outcome as the gateway reports it, in the shop's terms. */
export interface PaymentOutcome {
  type: 'payment.succeeded' | 'payment.failed';
  providerRef: string;
  /**
   * Our payment id when the gateway echoes it back (Stripe's metadata, PayPal's custom_id,
   * Alipay's out_trade_no): finds a payment whose provider_ref was not recorded yet (the
   * server died between the gateway's answer and our commit).
   */
  paymentId?: number;
  /** What the gateway says it charged, to compare with what we asked for. */
  amountMinor?: number;
  currency?: string;
  /** The captured charge, which refunds are made against (Stripe payment intent, PayPal capture id). */
  chargeRef?: string;
}

/**
 * A refund the gateway reports as made, whoever asked for it: the shop (its own call, whose
 * answer may not be recorded yet) or someone in the gateway's dashboard. The payments domain
 * matches it to the shop's own refund or records it (refund-events.ts).
 */
export interface RefundReport {
  type: 'refund.succeeded';
  /** The gateway's id of this refund (Alipay, which has none: `<trade_no>/<out_request_no>`, as `refund` answers). */
  refundRef: string;
  /** The charge it came out of (`payments.charge_ref`: Stripe payment intent, PayPal capture, Alipay trade_no). */
  chargeRef: string;
  /**
   * In minor units of the charged currency: this refund's amount, or with `cumulative` what
   * the charge has given back in all so far (Alipay's `refund_fee`).
   */
  amountMinor: number;
  currency: string;
  cumulative?: boolean;
  /**
   * What the gateway echoes of a refund the shop asked for (`shopRefundTag` of its key: Stripe
   * metadata, PayPal custom_id, Alipay out_request_no); absent for a dashboard refund.
   */
  shopTag?: string;
}

/**
 * A verified webhook in the shop's terms; anything the shop does not act on is `ignored`.
 * `eventId` is the gateway's own id for the notification, unique per provider: a replay
 * carries the same id and changes nothing.
 */
export type PaymentEvent =
  | (PaymentOutcome & { eventId: string })
  | (RefundReport & { eventId: string })
  | { eventId: string; type: 'ignored'; gatewayType: string };

/** What `lookupPayment` found: the outcome, or `pending` while the buyer may still pay. */
export type PaymentLookup = PaymentOutcome | 'pending';

export interface PaymentLookupRequest {
  paymentId: number;
  providerRef: string;
  method: PaymentMethodName;
  amountMinor: number;
  currency: Currency;
}

export interface RefundRequest {
  paymentId: number;
  providerRef: string;
  chargeRef: string | null;
  amountMinor: number;
  currency: Currency;
  /**
   * Names this refund at the gateway, so a retry after a lost answer refunds once: a staff
   * refund's own key, or `refund-payment-<id>` for a whole payment owed back.
   */
  idempotencyKey: string;
  /**
   * Everything the charge took, owed back (the order was cancelled meanwhile, or the amount
   * charged is not the order's): gateways that can refund "the rest" do so, since what they
   * captured may differ from `amountMinor`, which is what the shop asked for.
   */
  whole?: boolean;
}

/** A webhook whose signature, timestamp or shape is not acceptable (answered 400, nothing stored). */
export class WebhookVerificationError extends Error {}

/** What a gateway wants as the answer to a webhook it sent and we accepted (default: the JSON envelope). */
export interface WebhookAcknowledgement {
  contentType: string;
  body: string;
}

/**
 * The surface every gateway implements. Providers only talk to their gateway; the payments
 * service owns the shop's tables and order changes, and applies every event (webhook or
 * lookup) through one path, once per payment (payments.service.ts `applyPaymentEvent`).
 */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /**
   * The methods this provider takes for an order in this currency to a buyer in this country,
   * in the order the pay page lists them; empty when none fits. Pure: no network, no database
   * (the pay page calls it on every render).
   */
  methodsFor(query: MethodQuery): readonly PaymentMethodName[];
  /** Opens the gateway's page for one payment attempt with the method the buyer chose. */
  createCheckout(ctx: AppContext, request: CheckoutRequest): Promise<CheckoutSession>;
  /**
   * Throws WebhookVerificationError unless the raw body is signed by the gateway (or the
   * gateway's verify call confirms it). May call the gateway.
   */
  verifyWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Promise<PaymentEvent>;
  /** Set when the gateway needs a particular answer body (Alipay: the text `success`). */
  readonly webhookAcknowledgement?: WebhookAcknowledgement;
  /**
   * Asks the gateway where one payment stands, for the reconciliation job (payments pending
   * longer than PAYMENT_RECONCILE_AFTER_MINUTES) and for a buyer coming back from the
   * gateway. A gateway whose payments need a last step from the merchant (PayPal: capture an
   * approved order) takes it here, idempotently. `pending` when the buyer may still pay;
   * `payment.failed` once the gateway will never take this payment (expired, closed).
   */
  lookupPayment(ctx: AppContext, request: PaymentLookupRequest): Promise<PaymentLookup>;
  /** All or part of a captured payment; idempotent per `idempotencyKey`: asking twice refunds once. */
  refund(ctx: AppContext, request: RefundRequest): Promise<{ refundRef: string }>;
  /**
   * For gateways that sign the parameters they send the buyer back with (Alipay): the
   * `providerRef` they name when the signature is the gateway's for this shop, else null.
   * Never proof of payment: a good return only prompts `lookupPayment`.
   */
  returnReference?(params: Record<string, string>): string | null;
}
