import { afterAll, beforeAll } from 'vitest';

/**
 * Starts something before the tests of the current scope (the file, or the `describe` this is
 * called in) and closes it after them. Answers a function that gives it once started, for the
 * stand-ins the `use…` helpers hand out when a test file is collected.
 */
export function forTheScope<T extends { close(): Promise<void> }>(what: string, start: () => Promise<T>): () => T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(() => started?.close());
  return () => {
    if (!started) throw new Error(`${what} has not started yet`);
    return started;
  };
}
