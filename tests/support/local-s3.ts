import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from '@20minutes/s3rver';

export const LOCAL_S3_BUCKET = 'shop-test';

export interface LocalS3 {
  endpoint: string;
  /** The S3_* variables that point a shop at this server's bucket. */
  env: Record<string, string>;
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
