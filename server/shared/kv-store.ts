import type { Redis } from 'ioredis';

/**
 * Short-lived shared state (captcha answers, emailed codes, counters). In-process when the
 * shop runs as one copy; Redis when REDIS_URL is set so every copy sees the same values.
 */
export interface KeyValueStore {
  readonly kind: 'memory' | 'redis';
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  /** Reads and deletes in one step, so a single-use value can be used once only. */
  take(key: string): Promise<string | null>;
  delete(key: string): Promise<void>;
  /** Adds `by` (one unless given) and returns the new count; the TTL starts with the first increment. */
  increment(key: string, ttlSeconds: number, by?: number): Promise<number>;
  ttlSeconds(key: string): Promise<number | null>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function createMemoryStore(now: () => number = Date.now): KeyValueStore {
  const entries = new Map<string, { value: string; expiresAt: number }>();
  const live = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  const sweep = setInterval(() => {
    const at = now();
    for (const [key, entry] of entries) if (entry.expiresAt <= at) entries.delete(key);
  }, 60_000);
  sweep.unref();
  return {
    kind: 'memory',
    async get(key) {
      return live(key)?.value ?? null;
    },
    async set(key, value, ttlSeconds) {
      entries.set(key, { value, expiresAt: now() + ttlSeconds * 1000 });
    },
    async take(key) {
      const entry = live(key);
      entries.delete(key);
      return entry?.value ?? null;
    },
    async delete(key) {
      entries.delete(key);
    },
    async increment(key, ttlSeconds, by = 1) {
      const entry = live(key);
      const count = (entry ? Number(entry.value) : 0) + by;
      entries.set(key, { value: String(count), expiresAt: entry?.expiresAt ?? now() + ttlSeconds * 1000 });
      return count;
    },
    async ttlSeconds(key) {
      const entry = live(key);
      return entry ? Math.ceil((entry.expiresAt - now()) / 1000) : null;
    },
    async ping() {},
    async close() {
      clearInterval(sweep);
      entries.clear();
    },
  };
}

export function createRedisStore(redis: Redis, prefix: string): KeyValueStore {
  const k = (key: string) => prefix + key;
  return {
    kind: 'redis',
    get: (key) => redis.get(k(key)),
    async set(key, value, ttlSeconds) {
      await redis.set(k(key), value, 'EX', ttlSeconds);
    },
    take: (key) => redis.getdel(k(key)),
    async delete(key) {
      await redis.del(k(key));
    },
    async increment(key, ttlSeconds, by = 1) {
      const [[, count]] = (await redis.multi().incrby(k(key), by).expire(k(key), ttlSeconds, 'NX').exec()) as [
        [Error | null, number],
      ];
      return count;
    },
    async ttlSeconds(key) {
      const ttl = await redis.ttl(k(key));
      return ttl > 0 ? ttl : null;
    },
    async ping() {
      await redis.ping();
    },
    async close() {
      await redis.quit();
    },
  };
}
