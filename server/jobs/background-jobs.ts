import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { startOrderJobs } from './order-sweep';
import { startOutboxWorker } from './outbox-worker';
import { startPaymentsJobs } from './payments-jobs';

export interface BackgroundJobOptions {
  /**
   * Run the order sweep on its timer (ORDER_SWEEP_INTERVAL_SECONDS). The server process
   * (main.ts) does; in-process test servers leave it off and sweep by hand at the times they
   * choose, so a timer never races their assertions.
   */
  orderSweep: boolean;
}

/**
 * Every background job of the shop, tied to the server's life: the outbox worker starts when
 * the app is ready, the others once it listens (the sandbox gateway posts webhooks to the
 * address it listens on), and all stop when it closes,
 * each waiting for a run in progress (the outbox also sends what is due), so `app.close()` is
 * the one stop on shutdown.
 */
export function registerBackgroundJobs(app: FastifyInstance, ctx: AppContext, options: BackgroundJobOptions): void {
  let running: Array<{ stop(): Promise<void> }> = [];
  // The outbox needs no address, so it also runs in servers that only answer `inject` (tests).
  app.addHook('onReady', async () => {
    running.push(startOutboxWorker(ctx));
  });
  app.addHook('onListen', async () => {
    running.push(startPaymentsJobs(ctx, app.server.address()));
    if (options.orderSweep) running.push(startOrderJobs(ctx));
  });
  app.addHook('onClose', async () => {
    await Promise.all(running.map((job) => job.stop()));
    running = [];
  });
}
