import type { AppContext } from '../context';
import { ORDER_MAIL_TOPIC, readOrderMails, sendOrderMail } from '../domains/orders/order-mail';
import { orderMailJob } from '../domains/orders/orders.schemas';
import { REFUND_MAIL_TOPIC, refundMailJob, sendRefundMail } from '../domains/payments/refund-mail';
import {
  executeRefund,
  REFUND_SETTLED_TOPIC,
  REFUND_TOPIC,
  refundEffectJob,
  refundSettledJob,
} from '../domains/payments/refunds.service';
import { AFTER_SALE_MAIL_TOPIC, afterSaleMailJob, sendAfterSaleMail } from '../domains/after-sales/after-sale-mail';
import { settleCaseRefund } from '../domains/after-sales/after-sale-jobs';
import type { z } from 'zod';
import {
  sendInvitationMail,
  STAFF_INVITATION_MAIL_TOPIC,
  staffInvitationMailJob,
} from '../domains/staff/invitation-mail';
import {
  claimDueEffects,
  markEffectDone,
  markEffectFailed,
  OUTBOX_LEASE_SECONDS,
  pruneDoneEffects,
  renewEffectLeases,
  type ClaimedEffect,
} from '../domains/outbox/outbox.service';
import { isDatabaseUnavailable } from '../shared/errors';

interface EffectHandler<Payload, Read> {
  payload: z.ZodType<Payload>;
  /**
   * Reads at once what every effect of this topic in a claimed batch needs, in a few statements
   * rather than a few per effect; `run` gets the result. Failing, it fails each of them.
   */
  read?(ctx: AppContext, payloads: Payload[]): Promise<Read>;
  run(ctx: AppContext, payload: Payload, read: Read): Promise<unknown>;
}

type Handler = EffectHandler<unknown, unknown>;
type TopicRead = { value: unknown } | { error: unknown };
type Understood =
  { effect: ClaimedEffect; known: Handler; payload: unknown } | { effect: ClaimedEffect; unrunnable: string };

/** A topic's handler; one whose `run` takes what was read must say how to read it. */
function handler<Payload>(definition: {
  payload: z.ZodType<Payload>;
  run(ctx: AppContext, payload: Payload): Promise<unknown>;
}): Handler;
function handler<Payload, Read>(definition: Required<EffectHandler<Payload, Read>>): Handler;
function handler<Payload, Read>(definition: EffectHandler<Payload, Read>): Handler {
  return definition as unknown as Handler;
}

/** What each outbox topic does. A row whose topic or payload is not here fails for good, with the reason kept. */
const HANDLERS: Record<string, Handler> = {
  [ORDER_MAIL_TOPIC]: handler({ payload: orderMailJob, read: readOrderMails, run: sendOrderMail }),
  [STAFF_INVITATION_MAIL_TOPIC]: handler({ payload: staffInvitationMailJob, run: sendInvitationMail }),
  [REFUND_TOPIC]: handler({ payload: refundEffectJob, run: executeRefund }),
  [REFUND_MAIL_TOPIC]: handler({ payload: refundMailJob, run: sendRefundMail }),
  [REFUND_SETTLED_TOPIC]: handler({ payload: refundSettledJob, run: settleCaseRefund }),
  [AFTER_SALE_MAIL_TOPIC]: handler({ payload: afterSaleMailJob, run: sendAfterSaleMail }),
};

/** How often an idle worker looks for due effects; a full batch is followed by the next at once. */
const POLL_INTERVAL_MS = 500;
const BATCH = 10;
const LEASE_RENEWAL_MS = (OUTBOX_LEASE_SECONDS * 1000) / 4;
/** On shutdown the worker keeps sending what is due for at most this long (main.ts forces an exit at 15 s). */
const DRAIN_LIMIT_MS = 10_000;
/** Done effects are kept this long, for the record, then deleted by the hourly prune. */
const KEEP_DONE_DAYS = 30;
const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Runs the outbox (server/domains/outbox) on every server copy: claims due effects, runs
 * them, and records the outcome; a failure is retried with backoff, on whichever copy claims
 * it next. `stop()` (the server closing, after its last request) drains what is due.
 */
export function startOutboxWorker(ctx: AppContext): { stop(): Promise<void> } {
  const log = ctx.log.child({ job: 'outbox' });
  let running: Promise<void> | undefined;

  /** The claimed effects with their handler and parsed payload, or why none can run them. */
  const understood = (claimed: ClaimedEffect[]): Understood[] =>
    claimed.map((effect) => {
      const known = HANDLERS[effect.topic];
      if (!known) return { effect, unrunnable: 'unknown topic' };
      const parsed = known.payload.safeParse(effect.payload);
      if (!parsed.success) return { effect, unrunnable: `payload not readable: ${parsed.error.message}` };
      return { effect, known, payload: parsed.data };
    });

  /**
   * Each topic's `read` over its effects of the batch, started at once: what it read, or the
   * error that fails them. An effect waits only for its own topic's read; a topic without one
   * runs its effects at once.
   */
  const readsByTopic = (batch: Understood[]): Map<string, Promise<TopicRead>> => {
    const wanted = new Map<string, { read: NonNullable<Handler['read']>; payloads: unknown[] }>();
    for (const item of batch) {
      if (!('known' in item) || !item.known.read) continue;
      const topic = wanted.get(item.effect.topic) ?? { read: item.known.read, payloads: [] };
      topic.payloads.push(item.payload);
      wanted.set(item.effect.topic, topic);
    }
    return new Map(
      [...wanted].map(([topic, { read, payloads }]) => [
        topic,
        // Started inside a promise, so a read that throws before its first await fails its effects too.
        Promise.resolve()
          .then(() => read(ctx, payloads))
          .then(
            (value): TopicRead => ({ value }),
            (error: unknown): TopicRead => ({ error }),
          ),
      ]),
    );
  };

  const runEffect = async (item: Understood, read: TopicRead | undefined) => {
    const { effect } = item;
    if (!('known' in item)) {
      await markEffectFailed(ctx, effect, item.unrunnable, { final: true });
      log.error({ effectId: effect.id, topic: effect.topic }, 'outbox: effect cannot be run; given up');
      return;
    }
    try {
      if (read && 'error' in read) throw read.error;
      await item.known.run(ctx, item.payload, read?.value);
      await markEffectDone(ctx, effect.id);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const givenUp = await markEffectFailed(ctx, effect, message);
      if (givenUp)
        log.error(
          { effectId: effect.id, topic: effect.topic, attempts: effect.attempts, err: error },
          'outbox: effect given up',
        );
      else
        log.warn(
          { effectId: effect.id, topic: effect.topic, attempts: effect.attempts, error: message },
          'outbox: effect failed; will retry',
        );
    }
  };

  /** One claim and its effects, their leases renewed while any still runs; answers how many were claimed. */
  const runBatch = async (): Promise<number> => {
    const claimed = await claimDueEffects(ctx, BATCH);
    if (claimed.length === 0) return 0;
    const inFlight = new Set(claimed.map((effect) => effect.id));
    const renewal = setInterval(() => {
      renewEffectLeases(ctx, [...inFlight]).catch((error) => log.warn({ err: error }, 'outbox: lease not renewed'));
    }, LEASE_RENEWAL_MS);
    try {
      const batch = understood(claimed);
      const reads = readsByTopic(batch);
      await Promise.all(
        batch.map(async (item) => {
          try {
            await runEffect(item, await reads.get(item.effect.topic));
          } finally {
            inFlight.delete(item.effect.id);
          }
        }),
      );
    } finally {
      clearInterval(renewal);
    }
    return claimed.length;
  };

  const runUntilIdle = async (deadline = Number.POSITIVE_INFINITY): Promise<number> => {
    let total = 0;
    try {
      for (let claimed = BATCH; claimed === BATCH && Date.now() < deadline; total += claimed)
        claimed = await runBatch();
    } catch (error) {
      if (isDatabaseUnavailable(error)) log.warn('outbox: database unavailable; will try again');
      else log.error({ err: error }, 'outbox: run failed');
    }
    return total;
  };

  let prunedAt = Date.now();
  const prune = async () => {
    if (Date.now() - prunedAt < PRUNE_INTERVAL_MS) return;
    prunedAt = Date.now();
    const pruned = await pruneDoneEffects(ctx, KEEP_DONE_DAYS).catch((error) => {
      log.warn({ err: error }, 'outbox: pruning failed; will try again next hour');
      return 0;
    });
    if (pruned > 0) log.info({ pruned }, 'outbox: deleted effects done more than 30 days ago');
  };

  const timer = setInterval(() => {
    if (!running)
      running = runUntilIdle()
        .then(prune)
        .finally(() => (running = undefined));
  }, POLL_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
      const drained = await runUntilIdle(Date.now() + DRAIN_LIMIT_MS);
      if (drained > 0) log.info({ drained }, 'outbox: sent what was due before stopping');
    },
  };
}
