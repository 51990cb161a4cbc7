import { describe, expect, it } from 'vitest';
import { bodyFor, chooseEncoding, encodingFor, PageCache } from './page-cache';

const page = (text: string) => ({
  status: 200,
  headers: new Headers({ 'content-type': 'text/plain' }),
  body: Buffer.from(text),
});

describe('PageCache', () => {
  it('evicts the least recently used entry, counting a hit once a second', () => {
    const cache = new PageCache({ ttlMs: 60_000, maxEntries: 2, maxBytes: 1_000_000 });
    const start = Date.now();
    cache.set('a', page('a'));
    cache.set('b', page('b'));
    expect(cache.get('a', start + 1_500)).toBeDefined();
    cache.set('c', page('c'));
    expect(cache.get('b', start + 1_600)).toBeUndefined();
    expect(cache.get('a', start + 1_600)).toBeDefined();
    expect(cache.get('c', start + 1_600)).toBeDefined();
  });

  it('drops entries older than the TTL', () => {
    const cache = new PageCache({ ttlMs: 1_000, maxEntries: 10, maxBytes: 1_000_000 });
    cache.set('a', page('a'));
    expect(cache.get('a', Date.now() + 500)).toBeDefined();
    expect(cache.get('a', Date.now() + 1_500)).toBeUndefined();
  });

  it('keeps only its own bytes, not the pool slab a small Buffer.from(string) shares', () => {
    const cache = new PageCache({ ttlMs: 60_000, maxEntries: 10, maxBytes: 1_000_000 });
    const pooled = Buffer.from('{"code":200,"data":[]}');
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.length);
    const entry = cache.set('api', { ...page(''), body: pooled });
    expect(entry.body.buffer.byteLength).toBe(pooled.length);
    expect(entry.body.equals(pooled)).toBe(true);
    const big = cache.set('big', page('x'.repeat(8192)));
    for (const copy of [big.body, big.gzip!, big.brotli!]) expect(copy.buffer.byteLength).toBe(copy.length);
  });

  it('chooses the smallest accepted encoding, the same way for both helpers', () => {
    const cache = new PageCache({ ttlMs: 60_000, maxEntries: 10, maxBytes: 10_000_000 });
    const big = cache.set('big', page('x'.repeat(4096)));
    const small = cache.set('small', page('x'));
    for (const [accept, expected] of [
      [undefined, undefined],
      ['identity', undefined],
      ['gzip, deflate', 'gzip'],
      ['gzip, deflate, br', 'br'],
      ['BR', 'br'],
    ] as const) {
      expect(encodingFor(accept, big)).toBe(expected);
      expect(chooseEncoding(accept, big)).toEqual({
        body: bodyFor(big, expected),
        ...(expected ? { encoding: expected } : {}),
      });
      expect(encodingFor(accept, small)).toBeUndefined();
    }
    expect(bodyFor(big, 'gzip')).toBe(big.gzip);
    expect(bodyFor(big, 'br')).toBe(big.brotli);
    expect(bodyFor(big, undefined)).toBe(big.body);
  });
});
