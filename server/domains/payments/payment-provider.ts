import type { Locale } from '../../../i18n/locales';
import type { AppContext } from '../../context';
import type { Currency } from '../../shared/money';

export const PAYMENT_PROVIDERS = ['sandbox', 'stripe'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

export interface CheckoutRequest {
  paymentId: number;
  orderId: number;
  amountMinor: number;
  currency: Currency;
  locale: Locale;
  /** What the gateway page shows the buyer. */
  description: string;
  /** Absolute URLs the gateway sends the buyer back to. */
  successUrl: string;
  failUrl: string;
}

export interface CheckoutSession {
  /** The gateway's id for this checkout (kept as `payments.provider_ref`). */
  providerRef: string;
  redirectUrl: string;
}

/** A verified webhook in the shop's terms; anything the shop does not act on is `ignored`. */
export type PaymentEvent =
  | {
      eventId: string;
      type: 'payment.succeeded' | 'payment.failed';
      providerRef: string;
      /** What the gateway says it charged, to compare with what we asked for. */
      amountMinor?: number;
      currency?: string;
      chargeRef?: string;
    }
  | { eventId: string; type: 'ignored'; gatewayType: string };

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
}

/** A webhook whose signature, timestamp or shape is not acceptable. */
export class WebhookVerificationError extends Error {}

/**
 * The small surface every gateway implements. Providers only talk to their gateway; the
 * payments service owns the shop's tables and order changes.
 */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  createCheckout(ctx: AppContext, request: CheckoutRequest): Promise<CheckoutSession>;
  /** Throws WebhookVerificationError unless the raw body is signed by the gateway. */
  verifyWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): PaymentEvent;
  /** All or part of a captured payment; idempotent per `idempotencyKey`: asking twice refunds once. */
  refund(ctx: AppContext, request: RefundRequest): Promise<{ refundRef: string }>;
}
