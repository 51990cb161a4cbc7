import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryStore, createRedisStore, type KeyValueStore } from './kv-store';

const redisUrl = process.env.REDIS_URL;
const stores: Array<[string, () => KeyValueStore]> = [['memory', () => createMemoryStore()]];
const opened: KeyValueStore[] = [];
if (redisUrl) {
  stores.push(['redis', () => createRedisStore(new Redis(redisUrl), `test:kv:${process.pid}:${Date.now()}:`)]);
}
afterAll(async () => {
  for (const store of opened) await store.close();
});

describe.each(stores)('%s key-value store', (_name, make) => {
  const store = make();
  opened.push(store);

  it('stores a value until it expires', async () => {
    await store.set('greeting', 'hello', 1);
    expect(await store.get('greeting')).toBe('hello');
    expect(await store.ttlSeconds('greeting')).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await store.get('greeting')).toBeNull();
  });

  it('hands out a single-use value once', async () => {
    await store.set('captcha', '4821', 60);
    const [first, second] = await Promise.all([store.take('captcha'), store.take('captcha')]);
    expect([first, second].sort()).toEqual(['4821', null].sort());
  });

  it('counts concurrently without losing increments and keeps the first TTL', async () => {
    const counts = await Promise.all(Array.from({ length: 20 }, () => store.increment('hits', 30)));
    expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await store.ttlSeconds('hits')).toBeLessThanOrEqual(30);
  });

  it('adds amounts larger than one, keeping the first TTL', async () => {
    expect(await store.increment('bytes', 30, 1500)).toBe(1500);
    expect(await store.increment('bytes', 90, 250)).toBe(1750);
    expect(await store.ttlSeconds('bytes')).toBeLessThanOrEqual(30);
  });

  it('deletes', async () => {
    await store.set('gone', 'x', 60);
    await store.delete('gone');
    expect(await store.get('gone')).toBeNull();
  });
});

describe.skipIf(!redisUrl)('two copies sharing Redis', () => {
  it('see each other’s values', async () => {
    const prefix = `test:kv-shared:${process.pid}:${Date.now()}:`;
    const a = createRedisStore(new Redis(redisUrl!), prefix);
    const b = createRedisStore(new Redis(redisUrl!), prefix);
    try {
      await a.set('code', '123456', 60);
      expect(await b.take('code')).toBe('123456');
      expect(await a.get('code')).toBeNull();
    } finally {
      await a.close();
      await b.close();
    }
  });
});
