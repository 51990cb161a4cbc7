import { z } from 'zod';
import type { AppContext } from '../../../context';
import { WebhookVerificationError, type PaymentProvider } from '../payment-provider';
import { findSandboxSession, isExpired, openSandboxSession, refundSandboxSession } from './sandbox-gateway.service';
import { SANDBOX_SIGNATURE_HEADER, verifySandboxSignature } from './sandbox-signature';

export const SANDBOX_CHECKOUT_PATH = '/sandbox-gateway/checkout';

const sandboxEvent = z.object({
  id: z.string().min(1).max(200),
  type: z.string(),
  created: z.number().int(),
  data: z.object({
    session_id: z.string().min(1),
    reference: z.string(),
    amount: z.number().int(),
    currency: z.string(),
  }),
});

/** The sandbox keeps our payment id as the merchant's reference. */
function referencedPayment(reference: string): number | undefined {
  return /^\d+$/.test(reference) ? Number(reference) : undefined;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The shop's side of the sandbox gateway: it only reaches the gateway through its "API". */
export function createSandboxProvider(secret: string): PaymentProvider {
  return {
    name: 'sandbox',
    // Play money in any currency, for any buyer: the zero-setup way to try the whole flow.
    methodsFor: () => ['sandbox'],
    async createCheckout(ctx, request) {
      const session = await openSandboxSession(ctx, request);
      return { providerRef: session.id, redirectUrl: `${SANDBOX_CHECKOUT_PATH}/${session.id}` };
    },
    async verifyWebhook(rawBody, headers) {
      const check = verifySandboxSignature(secret, rawBody, headerValue(headers[SANDBOX_SIGNATURE_HEADER]));
      if (!check.ok) throw new WebhookVerificationError(`sandbox signature ${check.reason}`);
      let parsed: z.infer<typeof sandboxEvent>;
      try {
        parsed = sandboxEvent.parse(JSON.parse(rawBody.toString('utf8')));
      } catch {
        throw new WebhookVerificationError('sandbox event is not in the expected shape');
      }
      if (parsed.type !== 'payment.succeeded' && parsed.type !== 'payment.failed') {
        return { eventId: parsed.id, type: 'ignored', gatewayType: parsed.type };
      }
      return {
        eventId: parsed.id,
        type: parsed.type,
        providerRef: parsed.data.session_id,
        amountMinor: parsed.data.amount,
        currency: parsed.data.currency,
        chargeRef: parsed.data.session_id,
        paymentId: referencedPayment(parsed.data.reference),
      };
    },
    async lookupPayment(ctx, request) {
      const session = await findSandboxSession(ctx, request.providerRef);
      if (!session) return { type: 'payment.failed', providerRef: request.providerRef };
      const outcome = {
        providerRef: session.id,
        paymentId: referencedPayment(session.reference),
        amountMinor: session.amountMinor,
        currency: session.currency,
      };
      if (session.status === 'paid' || session.status === 'refunded')
        return { ...outcome, type: 'payment.succeeded', chargeRef: session.id };
      if (session.status === 'declined' || isExpired(session)) return { ...outcome, type: 'payment.failed' };
      return 'pending';
    },
    async refund(ctx: AppContext, request) {
      const { refundId } = await refundSandboxSession(ctx, request.providerRef, {
        amountMinor: request.amountMinor,
        idempotencyKey: request.idempotencyKey,
      });
      return { refundRef: refundId };
    },
  };
}
