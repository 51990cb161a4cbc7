import type { FastifyInstance } from 'fastify';
import { deliverDueSandboxWebhooks } from '../domains/payments/sandbox/sandbox-gateway.service';
import { retryOwedRefunds } from '../domains/payments/payments.service';
import { sandboxWebhookUrl } from '../http/routes/sandbox-gateway.routes';
import type { AppContext } from '../shared/context';
import { isDatabaseUnavailable } from '../shared/errors';

export const PAYMENTS_JOB_INTERVAL_MS = 2_000;

/**
 * Background work of payments, every two seconds on every copy: the sandbox gateway
 * retries webhooks the shop has not acknowledged, and refunds owed are asked for again.
 * Both claim rows so copies never double up (webhooks: SKIP LOCKED plus a lease; refunds:
 * idempotent at the gateway). Runs never overlap within a copy.
 */
export function registerPaymentsJobs(app: FastifyInstance, ctx: AppContext): void {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const log = ctx.log.child({ job: 'payments' });

  const runOnce = async () => {
    try {
      if (ctx.env.PAYMENT_PROVIDER === 'sandbox') {
        const url = sandboxWebhookUrl(ctx.env, app.server.address());
        if (url) await deliverDueSandboxWebhooks(ctx, url);
      }
      await retryOwedRefunds(ctx);
    } catch (error) {
      if (isDatabaseUnavailable(error)) log.warn('payments job: database unavailable; will try again');
      else log.error({ err: error }, 'payments job failed');
    }
  };

  app.addHook('onListen', async () => {
    timer = setInterval(() => {
      if (!running) running = runOnce().finally(() => (running = undefined));
    }, PAYMENTS_JOB_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
