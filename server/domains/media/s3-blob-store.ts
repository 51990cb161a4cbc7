import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
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

function missing(error: unknown): boolean {
  return (
    error instanceof NoSuchKey ||
    error instanceof NotFound ||
    (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404)
  );
}

/**
 * Blobs in an S3-compatible bucket through the AWS SDK v3. Objects are written without any
 * ACL: the bucket stays private, public images reach buyers through `/images` (immutable, so
 * a CDN in front keeps them) and private uploads only through our authorized routes.
 * `visibility` is kept as object metadata for operators who look into the bucket.
 */
export function s3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const client = new S3Client({
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
  });
  const Bucket = options.bucket;
  const objectKey = (key: string) => {
    assertBlobKey(key);
    return `${options.prefix ?? ''}${key}`;
  };
  const head = async (key: string): Promise<BlobHead | null> => {
    if (!isBlobKey(key)) return null;
    try {
      const answer = await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
      return {
        size: answer.ContentLength ?? 0,
        contentType: answer.ContentType ?? 'application/octet-stream',
        etag: (answer.ETag ?? '').replaceAll('"', ''),
      };
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  };
  const getObject = async (key: string) => {
    if (!isBlobKey(key)) return null;
    try {
      return await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  };
  return {
    kind: 's3',
    async put(key, bytes, { contentType, visibility }) {
      // One PutObject: S3 stores the whole object or nothing.
      await client.send(
        new PutObjectCommand({
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
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
      return true;
    },
  };
}
