import { and, desc, eq } from 'drizzle-orm';
import { payments } from '../../db/schema';
import type { RequestContext } from '../../context';
import { refreshPayment } from './payment-reconciliation';
import { providerNamed } from './payment-providers';

/**
 * A buyer back on the result page from a gateway that signs the parameters it sends them back
 * with (Alipay). The return proves nothing on its own (anyone can type the address, and a
 * signed one can be replayed): when its signature is the gateway's and it names the order's
 * pending payment, the gateway is asked where that payment stands (`lookupPayment`), and its
 * signed answer moves the payment through the same path as a webhook. Anything else leaves the
 * page to poll, as for every other gateway.
 */
export async function checkGatewayReturn(
  ctx: RequestContext,
  input: { orderId: number; params: URLSearchParams },
): Promise<void> {
  const [payment] = await ctx.db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, input.orderId), eq(payments.userId, ctx.user!.id)))
    .orderBy(desc(payments.id))
    .limit(1);
  if (!payment || payment.status !== 'pending' || !payment.providerRef) return;
  const provider = providerNamed(ctx.env, payment.provider);
  if (!provider?.returnReference) return;
  // The shop's own parameter on the return address is not the gateway's to sign.
  const gatewayParams = Object.fromEntries([...input.params].filter(([key]) => key !== 'order_id'));
  if (Object.keys(gatewayParams).length === 0) return;
  const reference = provider.returnReference(gatewayParams);
  if (reference !== payment.providerRef) {
    ctx.log.warn({ paymentId: payment.id, provider: payment.provider }, 'payments: return parameters not accepted');
    return;
  }
  await refreshPayment(ctx, payment);
}
