import type { AddressInfo } from 'node:net';
import { deliverDueSandboxWebhooks, sandboxWebhookUrl } from '../domains/payments/sandbox/sandbox-gateway.service';
import { retryOwedRefunds } from '../domains/payments/payments.service';
import { sandboxPaymentsOn } from '../domains/payments/payment-providers';
import { reconcilePayments } from '../domains/payments/payment-reconciliation';
import type { AppContext } from '../context';
import { isDatabaseUnavailable } from '../shared/errors';

const PAYMENTS_JOB_INTERVAL_MS = 2_000;
/** Reconciliation looks for payments quiet for minutes; every half minute is soon enough. */
const RECONCILE_EVERY_MS = 30_000;

/**
 * Background work of payments, every two seconds on every copy: the sandbox gateway
 * retries webhooks the shop has not acknowledged, refunds owed are asked for again, and
 * every half minute payments pending too long are asked about at their gateway
 * (payment-reconciliation.ts). All claim rows so copies never double up (webhooks: SKIP
 * LOCKED plus a lease; refunds: idempotent at the gateway; reconciliation: SKIP LOCKED and a
 * touched timestamp, events applied once). Runs never overlap within a copy. `serverAddress` is where
 * this copy listens: the sandbox posts its webhooks there unless SANDBOX_WEBHOOK_URL says otherwise.
 */
export function startPaymentsJobs(
  ctx: AppContext,
  serverAddress: AddressInfo | string | null,
): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  let reconciledAt = 0;
  const log = ctx.log.child({ job: 'payments' });

  const runOnce = async () => {
    try {
      if (sandboxPaymentsOn(ctx.env)) {
        const url = sandboxWebhookUrl(ctx.env, serverAddress);
        if (url) await deliverDueSandboxWebhooks(ctx, url);
      }
      await retryOwedRefunds(ctx);
      if (Date.now() - reconciledAt >= RECONCILE_EVERY_MS) {
        reconciledAt = Date.now();
        const { asked, heldApplied } = await reconcilePayments(ctx);
        const settled = asked.filter((entry) => entry.outcome !== 'pending' && entry.outcome !== null);
        if (settled.length > 0 || heldApplied > 0) log.info({ settled, heldApplied }, 'payments: reconciled');
      }
    } catch (error) {
      if (isDatabaseUnavailable(error)) log.warn('payments job: database unavailable; will try again');
      else log.error({ err: error }, 'payments job failed');
    }
  };

  const timer = setInterval(() => {
    if (!running) running = runOnce().finally(() => (running = undefined));
  }, PAYMENTS_JOB_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
