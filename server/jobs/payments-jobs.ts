import type { AddressInfo } from 'node:net';
import { deliverDueSandboxWebhooks, sandboxWebhookUrl } from '../domains/payments/sandbox/sandbox-gateway.service';
import { retryOwedRefunds } from '../domains/payments/payments.service';
import { sandboxPaymentsOn } from '../domains/payments/payment-providers';
import type { AppContext } from '../context';
import { isDatabaseUnavailable } from '../shared/errors';

const PAYMENTS_JOB_INTERVAL_MS = 2_000;

/**
 * Background work of payments, every two seconds on every copy: the sandbox gateway
 * retries webhooks the shop has not acknowledged, and refunds owed are asked for again.
 * Both claim rows so copies never double up (webhooks: SKIP LOCKED plus a lease; refunds:
 * idempotent at the gateway). Runs never overlap within a copy. `serverAddress` is where
 * this copy listens: the sandbox posts its webhooks there unless SANDBOX_WEBHOOK_URL says otherwise.
 */
export function startPaymentsJobs(
  ctx: AppContext,
  serverAddress: AddressInfo | string | null,
): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const log = ctx.log.child({ job: 'payments' });

  const runOnce = async () => {
    try {
      if (sandboxPaymentsOn(ctx.env)) {
        const url = sandboxWebhookUrl(ctx.env, serverAddress);
        if (url) await deliverDueSandboxWebhooks(ctx, url);
      }
      await retryOwedRefunds(ctx);
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
