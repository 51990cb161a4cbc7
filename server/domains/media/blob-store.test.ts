import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalS3, type LocalS3 } from '../../../tests/support/local-s3';
import { isBlobKey, localBlobStore, type BlobStore } from './blob-store';

/** One contract, two stores: what every caller relies on, for the folder and for S3 alike. */
function blobStoreContract(name: string, open: () => Promise<{ store: BlobStore; close(): Promise<void> }>) {
  describe(`${name} blob store`, () => {
    let store: BlobStore;
    let close: () => Promise<void>;
    const run = Math.random().toString(36).slice(2);
    beforeAll(async () => {
      ({ store, close } = await open());
    });
    afterAll(() => close());

    it('stores bytes and gives them back whole, streamed, and described by head', async () => {
      const key = `images/h/${run}-a.png`;
      await store.put(key, Buffer.from('first bytes'), { contentType: 'image/png', visibility: 'public' });
      expect((await store.get(key))?.toString()).toBe('first bytes');
      const head = await store.head(key);
      expect(head).toEqual({ size: 11, contentType: 'image/png', etag: expect.any(String) });
      const streamed = await store.stream(key);
      expect(streamed).toMatchObject({ size: 11, contentType: 'image/png', etag: head!.etag });
      expect(await text(streamed!.body)).toBe('first bytes');
    });

    it('replaces a blob written again, with a new etag', async () => {
      const key = `uploads/${run}/b.webp`;
      await store.put(key, Buffer.from('one'), { contentType: 'image/webp', visibility: 'public' });
      const before = await store.head(key);
      await store.put(key, Buffer.from('second'), { contentType: 'image/webp', visibility: 'public' });
      const after = await store.head(key);
      expect(after).toMatchObject({ size: 6, contentType: 'image/webp' });
      expect(after!.etag).not.toBe(before!.etag);
      expect((await store.get(key))?.toString()).toBe('second');
    });

    it('keeps private blobs readable through the store', async () => {
      const key = `private-uploads/${run}/c.webp`;
      await store.put(key, Buffer.from('evidence'), { contentType: 'image/webp', visibility: 'private' });
      expect((await store.get(key))?.toString()).toBe('evidence');
    });

    it('answers null for a missing blob and false when deleting one', async () => {
      const key = `variants/${run}/missing.webp`;
      expect(await store.get(key)).toBeNull();
      expect(await store.stream(key)).toBeNull();
      expect(await store.head(key)).toBeNull();
      expect(await store.delete(key)).toBe(false);
    });

    it('deletes a blob once', async () => {
      const key = `uploads/${run}/d.webp`;
      await store.put(key, Buffer.from('gone soon'), { contentType: 'image/webp', visibility: 'public' });
      expect(await store.delete(key)).toBe(true);
      expect(await store.head(key)).toBeNull();
      expect(await store.get(key)).toBeNull();
      expect(await store.delete(key)).toBe(false);
    });

    it('names nothing outside its own prefixes', async () => {
      for (const key of [
        '../etc/passwd',
        'images/../../x',
        'template.pglite.tar.gz',
        'images/a b.png',
        '/images/a.png',
      ])
        expect(await store.head(key), key).toBeNull();
      await expect(
        store.put('config/secret.txt', Buffer.from('x'), { contentType: 'text/plain', visibility: 'private' }),
      ).rejects.toThrow('not a blob key');
    });
  });
}

blobStoreContract('local folder', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-blobs-'));
  return { store: localBlobStore(root), close: async () => fs.rmSync(root, { recursive: true, force: true }) };
});

blobStoreContract('S3-compatible', async () => {
  const s3: LocalS3 = await startLocalS3();
  const store = s3.store('shop/');
  return { store, close: () => s3.close() };
});

describe('blob keys', () => {
  it('are our prefixes followed by plain path segments', () => {
    expect(isBlobKey('images/h/0123abcd.webp')).toBe(true);
    expect(isBlobKey('uploads/2026-11/abc_DEF-123.webp')).toBe(true);
    expect(isBlobKey('private-uploads/2026-11/x.webp')).toBe(true);
    expect(isBlobKey('variants/ab/abcdef-w320-q75.webp')).toBe(true);
    expect(isBlobKey('images/../secret')).toBe(false);
    expect(isBlobKey('images/./a.png')).toBe(false);
    expect(isBlobKey('images//a.png')).toBe(false);
    expect(isBlobKey('cache/a.png')).toBe(false);
    expect(isBlobKey('images')).toBe(false);
  });
});
