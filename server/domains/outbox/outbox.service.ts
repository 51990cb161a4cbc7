import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { outbox } from '../../db/schema';
import type { AppContext, TransactionContext } from '../../context';
import { retryDelayMs } from '../../shared/backoff';
import { preparedPerDatabase } from '../../db/prepared';

/** After this many failed attempts (about a day and a half of backoff) an effect is given up and logged. */
export const OUTBOX_MAX_ATTEMPTS = 12;
/**
 * How long a claimed row is this copy's unless renewed (renewEffectLeases, while its effect
 * runs). A copy killed mid-effect leaves its rows leased; another copy, or this one
 * restarted, takes them over once the lease runs out.
 */
export const OUTBOX_LEASE_SECONDS = 20;

export interface OutboxEntry {
  topic: string;
  payload: unknown;
  /** Names the effect, so enqueueing the same one twice (a replayed webhook) keeps one row. */
  dedupeKey: string;
}

export interface ClaimedEffect {
  id: number;
  topic: string;
  payload: unknown;
  attempts: number;
}

/** Writes an effect in the caller's transaction: it happens if and only if the change commits. */
export async function enqueueEffect(ctx: TransactionContext, entry: OutboxEntry): Promise<void> {
  await ctx.db.insert(outbox).values(entry).onConflictDoNothing({ target: outbox.dedupeKey });
}

/**
 * Writes effects as part of one statement whose other parts made the change: `effects` is a
 * query answering `payload` (jsonb) and `dedupe_key` columns, one row per effect of `topic`.
 * Like `enqueueEffect`, they happen if and only if the statement commits.
 */
export function enqueueEffectsWrite(topic: string, effects: SQL): SQL {
  return sql`insert into ${outbox} (topic, payload, dedupe_key)
    select ${topic}::text, effect.payload, effect.dedupe_key from (${effects}) as effect
    on conflict (dedupe_key) do nothing returning ${outbox.id}`;
}

/**
 * Leases up to `limit` due effects, oldest first. SKIP LOCKED lets copies claim side by side
 * without waiting on each other, and the lease keeps a claimed row from running twice while
 * its effect is in flight.
 */
export async function claimDueEffects(ctx: AppContext, limit: number): Promise<ClaimedEffect[]> {
  const result = await ctx.db.execute(sql`
    update outbox
       set locked_until = now() + make_interval(secs => ${OUTBOX_LEASE_SECONDS}), attempts = attempts + 1
     where id in (
       select id from outbox
        where done_at is null and failed_at is null
          and next_attempt_at <= now()
          and (locked_until is null or locked_until < now())
        order by next_attempt_at, id
        limit ${limit}
        for update skip locked)
    returning id, topic, payload, attempts`);
  return (result as unknown as { rows: ClaimedEffect[] }).rows.sort((a, b) => a.id - b.id);
}

/** Keeps the leases of effects still running, so no other copy takes them over while a slow mail server answers. */
export async function renewEffectLeases(ctx: AppContext, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await ctx.db
    .update(outbox)
    .set({ lockedUntil: sql`now() + make_interval(secs => ${OUTBOX_LEASE_SECONDS})` })
    .where(and(inArray(outbox.id, [...ids]), isNull(outbox.doneAt), isNull(outbox.failedAt)));
}

const effectDone = preparedPerDatabase((db) =>
  db
    .update(outbox)
    .set({ doneAt: sql`now()`, lockedUntil: null, lastError: null })
    .where(eq(outbox.id, sql.placeholder('id')))
    .prepare('outbox_effect_done'),
);

export async function markEffectDone(ctx: AppContext, id: number): Promise<void> {
  await effectDone(ctx.db).execute({ id });
}

/**
 * Records a failed attempt: the effect is tried again after the shared backoff, or given up
 * for good when `final` (a payload no handler can read) or its attempts are used up.
 * Returns whether it was given up.
 */
export async function markEffectFailed(
  ctx: AppContext,
  effect: ClaimedEffect,
  error: string,
  options: { final?: boolean } = {},
): Promise<boolean> {
  const now = Date.now();
  const givenUp = options.final === true || effect.attempts >= OUTBOX_MAX_ATTEMPTS;
  await ctx.db
    .update(outbox)
    .set({
      lockedUntil: null,
      lastError: error.slice(0, 2_000),
      ...(givenUp ? { failedAt: new Date(now) } : { nextAttemptAt: new Date(now + retryDelayMs(effect.attempts)) }),
    })
    .where(eq(outbox.id, effect.id));
  return givenUp;
}

/** Deletes effects done more than `days` ago; failed ones stay until someone looks at them. */
export async function pruneDoneEffects(ctx: AppContext, days: number): Promise<number> {
  const pruned = await ctx.db
    .delete(outbox)
    .where(sql`${outbox.doneAt} < now() - make_interval(days => ${days})`)
    .returning({ id: outbox.id });
  return pruned.length;
}
