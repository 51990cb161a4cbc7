/**
 * How long to wait before trying a failed delivery again, by how many attempts were made:
 * 5 s, 15 s, 45 s ... up to an hour. One rule for every retry loop (the outbox, the sandbox
 * gateway's webhooks).
 */
export function retryDelayMs(attempts: number): number {
  return Math.min(5_000 * 3 ** Math.max(0, attempts - 1), 60 * 60 * 1000);
}
