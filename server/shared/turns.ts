import { OverloadedError } from './errors';

export interface Turns {
  /**
   * Runs `task` when a turn is free, in arrival order; refuses with `OverloadedError` past the
   * longest wait. When `signal` aborts first (the client left), the task leaves the queue and
   * never runs: the call rejects with the signal's reason.
   */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Tasks running now, and tasks waiting for a turn. */
  readonly load: { running: number; waiting: number };
}

interface Waiter {
  start(): void;
  timer: NodeJS.Timeout;
}

/**
 * At most `atOnce` tasks at a time; the others wait their turn first come, first served, for at
 * most `maxWaitMs`, then are refused (ADR 0181). A task that waits holds nothing, no connection
 * and no lock, so under a burst the tasks that run finish at full speed instead of every one
 * of them advancing a step at a time; a task admitted after a sell-out sees the sell-out.
 *
 * Written here rather than taken from p-limit: a waiter must be able to give up after a
 * deadline and leave the queue, which p-limit (and p-queue, whose timeout stops running
 * tasks) does not offer.
 */
export function createTurns(options: { atOnce: number; maxWaitMs: number; retryAfterSeconds: number }): Turns {
  let running = 0;
  const waiting = new Set<Waiter>();

  const next = () => {
    const [first] = waiting;
    if (!first) {
      running--;
      return;
    }
    waiting.delete(first);
    clearTimeout(first.timer);
    first.start();
  };

  const turn = (signal: AbortSignal | undefined) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      if (running < options.atOnce) {
        running++;
        resolve();
        return;
      }
      const leave = (reason: unknown) => {
        waiting.delete(waiter);
        clearTimeout(waiter.timer);
        signal?.removeEventListener('abort', onAbort);
        reject(reason);
      };
      const onAbort = () => leave(signal?.reason);
      const waiter: Waiter = {
        // The turn passes from the task that ended: `running` stays as it is.
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        timer: setTimeout(() => leave(new OverloadedError(options.retryAfterSeconds)), options.maxWaitMs),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      waiting.add(waiter);
    });

  return {
    async run(task, signal) {
      await turn(signal);
      try {
        return await task();
      } finally {
        next();
      }
    },
    get load() {
      return { running, waiting: waiting.size };
    },
  };
}
