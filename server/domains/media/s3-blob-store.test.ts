import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startLocalS3, type LocalS3 } from '../../../tests/support/local-s3';
import { narrowS3Bucket } from '../../../tests/support/narrow-s3';
import { s3BlobStore, StorageRefusedError, type BlobStoreLog } from './s3-blob-store';

/**
 * What S3 answers when the shop's keys may not do everything (ADR 0150): without
 * s3:ListBucket a HEAD or GET of a missing key is a 403, not a 404; a bucket that refuses
 * writes answers 403 to PutObject. s3rver grants everything, so the SDK client's `send` is
 * wrapped to answer as such a bucket would.
 */
let s3: LocalS3;
beforeAll(async () => {
  s3 = await startLocalS3();
});
afterAll(() => s3?.close());
afterEach(() => {
  vi.restoreAllMocks();
});

function recordingLog() {
  const lines: Array<{ level: 'warn' | 'error'; fields: object; message: string }> = [];
  const log: BlobStoreLog = {
    warn: (fields, message) => lines.push({ level: 'warn', fields, message }),
    error: (fields, message) => lines.push({ level: 'error', fields, message }),
  };
  return { lines, log };
}

function storeWith(log: BlobStoreLog) {
  return s3BlobStore({
    endpoint: s3.endpoint,
    bucket: 'shop-test',
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
    log,
  });
}

const write = { contentType: 'image/png', visibility: 'public' } as const;

describe('an S3 bucket without s3:ListBucket', () => {
  it('takes a 403 on a missing key as "not known to exist", lets the write decide, and says so once', async () => {
    const { lines, log } = recordingLog();
    const store = storeWith(log);
    const key = `images/h/${Math.random().toString(36).slice(2)}.png`;
    narrowS3Bucket({ writes: true });

    expect(await store.head(key)).toBeNull();
    expect(await store.get(key)).toBeNull();
    expect(await store.stream(key)).toBeNull();
    expect(await store.delete(key)).toBe(false);
    await store.put(key, Buffer.from('png bytes'), write);
    expect((await store.get(key))?.toString()).toBe('png bytes');
    expect(await store.head(key)).toMatchObject({ size: 9, contentType: 'image/png' });

    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'warn',
      fields: {
        bucket: 'shop-test',
        operation: 'HeadObject',
        status: 403,
        error: 'AccessDenied',
        requestId: 'REQ-403',
      },
    });
    expect(JSON.stringify(lines)).not.toContain('S3RVER');
  });
});

describe('an S3 bucket that refuses writes', () => {
  it('answers a clear storage refusal, logged once without the keys, and stores nothing', async () => {
    const { lines, log } = recordingLog();
    const store = storeWith(log);
    const key = `images/h/${Math.random().toString(36).slice(2)}.png`;
    narrowS3Bucket({ writes: false });

    for (let attempt = 0; attempt < 3; attempt++) {
      const refused = store.put(key, Buffer.from('png bytes'), write);
      await expect(refused).rejects.toBeInstanceOf(StorageRefusedError);
      await expect(refused).rejects.toMatchObject({ kind: 'storageUnavailable', messageKey: 'media.storageRefused' });
    }
    vi.restoreAllMocks();
    expect(await store.head(key)).toBeNull();

    expect(lines.filter((line) => line.level === 'error')).toEqual([
      {
        level: 'error',
        fields: {
          bucket: 'shop-test',
          operation: 'PutObject',
          status: 403,
          error: 'AccessDenied',
          requestId: 'REQ-403',
        },
        message: expect.stringContaining('S3 refused a write (403)'),
      },
    ]);
    expect(JSON.stringify(lines)).not.toContain('S3RVER');
  });
});
