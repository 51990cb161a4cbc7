import type { Readable } from 'node:stream';
import type * as S3Sdk from '@aws-sdk/client-s3';
import { assertBlobKey, isBlobKey, type BlobHead, type BlobStore } from './blob-store';

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
}

function missing(sdk: typeof S3Sdk, error: unknown): boolean {
  return (
    error instanceof sdk.NoSuchKey ||
    error instanceof sdk.NotFound ||
    (error instanceof sdk.S3ServiceException && error.$metadata.httpStatusCode === 404)
  );
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
      throw error;
    }
  };
  return {
    kind: 's3',
    async put(key, bytes, { contentType, visibility }) {
      // One PutObject: S3 stores the whole object or nothing.
      const { sdk, client } = await connect();
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
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
      return true;
    },
  };
}
