import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from '@20minutes/s3rver';
import type { BlobStore } from '../../server/domains/media/blob-store';
import { s3BlobStore } from '../../server/domains/media/s3-blob-store';

export const LOCAL_S3_BUCKET = 'shop-test';

export interface LocalS3 {
  endpoint: string;
  /** The S3_* variables that point a shop at this server's bucket. */
  env: Record<string, string>;
  /** A blob store on the bucket, as a shop with `env` (and `S3_PREFIX=prefix`) has it. */
  store(prefix?: string): BlobStore;
  close(): Promise<void>;
}

/**
 * An S3-compatible server on a random local port (s3rver, ADR 0150), with one empty bucket,
 * its objects in a temporary folder that `close` removes.
 */
export async function startLocalS3(): Promise<LocalS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: LOCAL_S3_BUCKET }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    store: (prefix = '') =>
      s3BlobStore({
        endpoint,
        bucket: LOCAL_S3_BUCKET,
        region: 'us-east-1',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
        prefix,
      }),
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: LOCAL_S3_BUCKET,
      S3_REGION: 'us-east-1',
      // s3rver's one account.
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
