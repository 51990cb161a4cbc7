import type { Readable } from 'node:stream';
import type * as S3Sdk from '@aws-sdk/client-s3';
import { AppError } from '../../shared/errors';
import { assertBlobKey, isBlobKey, type BlobHead, type BlobStore } from './blob-store';

/** Where the store reports that the bucket refused it: a pino logger, or anything shaped like one. */
export interface BlobStoreLog {
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface S3BlobStoreOptions {
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `bucket.host` addresses need DNS for every bucket; local servers and MinIO want `host/bucket`. */
  forcePathStyle: boolean;
  /** Prepended to every key, so one bucket can hold several shops. */
  prefix?: string;
  log?: BlobStoreLog;
}

/**
 * The bucket refused a write or a delete (403): the shop's keys or the bucket's policy are
 * wrong, nothing the visitor can fix. Answered 503 in the visitor's language; nothing was stored.
 */
export class StorageRefusedError extends AppError {
  constructor() {
    super('storageUnavailable', 'media.storageRefused');
  }
}

function missing(sdk: typeof S3Sdk, error: unknown): boolean {
  return (
    error instanceof sdk.NoSuchKey ||
    error instanceof sdk.NotFound ||
    (error instanceof sdk.S3ServiceException && error.$metadata.httpStatusCode === 404)
  );
}

function refused(sdk: typeof S3Sdk, error: unknown): error is S3Sdk.S3ServiceException {
  return error instanceof sdk.S3ServiceException && error.$metadata.httpStatusCode === 403;
}

/**
 * Blobs in an S3-compatible bucket through the AWS SDK v3. Objects are written without any
 * ACL: the bucket stays private, public images reach buyers through `/images` (immutable, so
 * a CDN in front keeps them) and private uploads only through our authorized routes.
 * `visibility` is kept as object metadata for operators who look into the bucket.
 */
export function s3BlobStore(options: S3BlobStoreOptions): BlobStore {
  // The SDK is about 20 MB of memory: loaded on first use, so a shop on local folders never pays it.
  let connection: Promise<{ sdk: typeof S3Sdk; client: S3Sdk.S3Client }> | undefined;
  const connect = () =>
    (connection ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        endpoint: options.endpoint,
        region: options.region,
        forcePathStyle: options.forcePathStyle,
        // Checksums only where S3 requires them: many S3-compatible services refuse the SDK's newer defaults.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        credentials:
          options.accessKeyId && options.secretAccessKey
            ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
            : undefined,
      }),
    })));
  const Bucket = options.bucket;
  // Each kind of refusal is logged once per store: a wrong policy would otherwise log every request.
  const told = new Set<string>();
  const tell = (kind: 'read' | 'write', operation: string, error: S3Sdk.S3ServiceException) => {
    if (told.has(kind)) return;
    told.add(kind);
    // Names only: the error object carries the request, and with it the signature.
    const fields = { bucket: Bucket, operation, status: 403, error: error.name, requestId: error.$metadata.requestId };
    if (kind === 'read')
      options.log?.warn(
        fields,
        'S3 answered 403 to a read: taken as "not known to exist" (without s3:ListBucket S3 answers 403, not 404, for a missing key); grant s3:ListBucket and s3:GetObject',
      );
    else
      options.log?.error(
        fields,
        'S3 refused a write (403): check the keys and the bucket policy (s3:PutObject, s3:DeleteObject)',
      );
  };
  const objectKey = (key: string) => {
    assertBlobKey(key);
    return `${options.prefix ?? ''}${key}`;
  };
  const head = async (key: string): Promise<BlobHead | null> => {
    if (!isBlobKey(key)) return null;
    const { sdk, client } = await connect();
    try {
      const answer = await client.send(new sdk.HeadObjectCommand({ Bucket, Key: objectKey(key) }));
      return {
        size: answer.ContentLength ?? 0,
        contentType: answer.ContentType ?? 'application/octet-stream',
        etag: (answer.ETag ?? '').replaceAll('"', ''),
      };
    } catch (error) {
      if (missing(sdk, error)) return null;
      if (refused(sdk, error)) {
        // Not a verdict: a write that follows (an upload, a variant) is what finds out.
        tell('read', 'HeadObject', error);
        return null;
      }
      throw error;
    }
  };
  const getObject = async (key: string) => {
    if (!isBlobKey(key)) return null;
    const { sdk, client } = await connect();
    try {
      return await client.send(new sdk.GetObjectCommand({ Bucket, Key: objectKey(key) }));
    } catch (error) {
      if (missing(sdk, error)) return null;
      if (refused(sdk, error)) {
        tell('read', 'GetObject', error);
        return null;
      }
      throw error;
    }
  };
  return {
    kind: 's3',
    async put(key, bytes, { contentType, visibility }) {
      // One PutObject: S3 stores the whole object or nothing.
      const { sdk, client } = await connect();
      try {
        await client.send(
          new sdk.PutObjectCommand({
            Bucket,
            Key: objectKey(key),
            Body: bytes,
            ContentType: contentType,
            ContentLength: bytes.length,
            Metadata: { visibility },
          }),
        );
      } catch (error) {
        if (!refused(sdk, error)) throw error;
        tell('write', 'PutObject', error);
        throw new StorageRefusedError();
      }
    },
    async get(key) {
      const answer = await getObject(key);
      if (!answer?.Body) return null;
      return Buffer.from(await answer.Body.transformToByteArray());
    },
    async stream(key) {
      const answer = await getObject(key);
      if (!answer?.Body) return null;
      return {
        size: answer.ContentLength ?? 0,
        contentType: answer.ContentType ?? 'application/octet-stream',
        etag: (answer.ETag ?? '').replaceAll('"', ''),
        body: answer.Body as Readable,
      };
    },
    head,
    async delete(key) {
      if (!(await head(key))) return false;
      const { sdk, client } = await connect();
      try {
        await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
      } catch (error) {
        if (!refused(sdk, error)) throw error;
        tell('write', 'DeleteObject', error);
        throw new StorageRefusedError();
      }
      return true;
    },
  };
}
