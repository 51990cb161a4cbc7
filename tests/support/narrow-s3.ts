import { S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { vi } from 'vitest';

/** What S3 answers a request the bucket policy does not allow. */
export const forbiddenS3Error = () =>
  new S3ServiceException({
    name: 'AccessDenied',
    $fault: 'client',
    $metadata: { httpStatusCode: 403, requestId: 'REQ-403' },
    message: 'Access Denied',
  });

/**
 * Makes every S3 client in this process answer as a bucket whose policy is narrower than
 * s3rver's (ADR 0150): without s3:ListBucket, a HEAD or GET of a missing key is a 403, not a
 * 404; with `writes: false`, PutObject and DeleteObject are refused too. Undone by
 * `vi.restoreAllMocks()`.
 */
export function narrowS3Bucket(options: { writes: boolean }) {
  const send = S3Client.prototype.send;
  return vi.spyOn(S3Client.prototype, 'send').mockImplementation(async function (
    this: S3Client,
    command: { constructor: { name: string } },
  ) {
    const name = command.constructor.name;
    if (!options.writes && (name === 'PutObjectCommand' || name === 'DeleteObjectCommand')) throw forbiddenS3Error();
    try {
      return await (send as (command: unknown) => Promise<unknown>).call(this, command);
    } catch (error) {
      const status = (error as S3ServiceException).$metadata?.httpStatusCode;
      if (status === 404 && (name === 'HeadObjectCommand' || name === 'GetObjectCommand')) throw forbiddenS3Error();
      throw error;
    }
  } as never);
}
