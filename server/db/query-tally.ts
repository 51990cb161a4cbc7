import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from 'drizzle-orm';

/** The statements one piece of work sent to the database, in order. */
export interface QueryTally {
  statements: string[];
}

const tallies = new AsyncLocalStorage<QueryTally>();

/**
 * Runs `work` and answers what it sent to the database. The query budgets test counts each
 * private page's statements this way; nothing in the shop enters a tally, so outside one the
 * logger below is a single failed lookup per statement.
 */
export async function tallyQueries<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const tally: QueryTally = { statements: [] };
  // Awaited inside the run: drizzle's queries and `inject` are lazy thenables that start on
  // `then`, which must happen inside the tally's context.
  const result = await tallies.run(tally, async () => await work());
  return { result, statements: tally.statements };
}

/** Drizzle's logger hook, given to both drivers: it records a statement only inside `tallyQueries`. */
export const queryTallyLogger: Logger = {
  logQuery(query) {
    tallies.getStore()?.statements.push(query);
  },
};
