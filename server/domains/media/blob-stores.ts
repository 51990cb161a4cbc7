import type { Env } from '../../shared/env';
import { createLogger } from '../../shared/logger';
import { localBlobStore, type BlobStore } from './blob-store';
import { s3BlobStore } from './s3-blob-store';

const stores = new WeakMap<object, BlobStore>();

type BlobStoreEnv = Pick<
  Env,
  | 'dataDir'
  | 'S3_BUCKET'
  | 'S3_ENDPOINT'
  | 'S3_REGION'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
  | 'S3_FORCE_PATH_STYLE'
  | 'S3_PREFIX'
  | 'LOG_LEVEL'
  | 'NODE_ENV'
>;

/** The S3-compatible bucket when `S3_BUCKET` is set, else folders under DATA_DIR. */
export function createBlobStore(env: BlobStoreEnv): BlobStore {
  if (!env.S3_BUCKET) return localBlobStore(env.dataDir);
  return s3BlobStore({
    bucket: env.S3_BUCKET,
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
    prefix: env.S3_PREFIX,
    log: createLogger(env),
  });
}

/** The process's one store for this configuration (one S3 client, reused). */
export function blobStoreOf(env: BlobStoreEnv): BlobStore {
  let store = stores.get(env);
  if (!store) {
    store = createBlobStore(env);
    stores.set(env, store);
  }
  return store;
}
