import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { makeShopper, placeOrderFor, prepareSku } from '../support/buyers';
import { rawGet as rawHttpGet } from '../support/raw-http';
import { useTestServer } from '../support/test-server';

/**
 * Answers of a few kilobytes are compressed in one call and sent with their length
 * (server/http/small-body-compression.ts); larger ones stream. Either way the client gets the
 * same bytes back in the encoding it prefers.
 */
const server = useTestServer();

describe('compressed answers', () => {
  it('send a private API answer in the preferred encoding, with its length, the same JSON as uncompressed', async () => {
    const buyer = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 20 });
    for (let i = 0; i < 4; i++) await placeOrderFor(buyer, sku.id);
    const path = '/v1/order/list?page=1&page_size=10';
    const headers = { ...buyer.headers };
    const plain = await rawHttpGet(server.url + path, { ...headers, 'accept-encoding': 'identity' });
    const brotli = await rawHttpGet(server.url + path, { ...headers, 'accept-encoding': 'gzip, deflate, br' });
    const gzip = await rawHttpGet(server.url + path, { ...headers, 'accept-encoding': 'gzip;q=1, br;q=0' });

    expect(plain.body.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(brotliDecompressSync(brotli.body).toString()).toBe(plain.body.toString());
    expect(gunzipSync(gzip.body).toString()).toBe(plain.body.toString());
    for (const answer of [brotli, gzip]) {
      expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
      expect(answer.headers.vary).toMatch(/Accept-Encoding/);
      expect(answer.headers.vary).toMatch(/Cookie/);
      expect(answer.headers['cache-control']).toBe('private, no-store');
    }
    expect(JSON.parse(plain.body.toString()).data.records).toHaveLength(4);
  });

  it('leave a body under a kilobyte as it is', async () => {
    const small = await rawHttpGet(`${server.url}/v1/visitor`, { 'accept-encoding': 'gzip, br' });
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString()).data).toMatchObject({ user: null });
  });
});
