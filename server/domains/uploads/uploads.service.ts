import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import type { AppContext } from '../../context';
import { isBlobKey } from '../media/blob-store';
import { blobStoreOf } from '../media/blob-stores';
import { BadRequestError } from '../../shared/errors';

/** Uploaded pictures are re-encoded to fit this box; bigger originals are scaled down. */
export const UPLOAD_MAX_SIDE = 2048;
export const UPLOADS_URL_PREFIX = '/uploads/';

/** A byte count as buyers read it in messages: `5 MB`, `1.5 MB`, `200 KB`. */
export function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;
}

/**
 * An uploaded image decoded and re-encoded as webp by sharp, which drops EXIF, GPS and any
 * other metadata, and any payload hidden after the image. Anything sharp cannot read as an
 * image is refused.
 */
export async function reencodeUploadedImage(input: { bytes: Buffer; mimetype: string }): Promise<Buffer> {
  if (!input.mimetype.startsWith('image/')) throw new BadRequestError('accounts.upload.notImage');
  try {
    return await sharp(input.bytes, { limitInputPixels: 50_000_000, animated: false })
      .rotate()
      .resize({ width: UPLOAD_MAX_SIDE, height: UPLOAD_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    throw new BadRequestError('accounts.upload.notImage');
  }
}

/** The folder of this month's uploads (`2026-11`), so no folder grows without end. */
export function uploadMonth(): string {
  return new Date().toISOString().slice(0, 7);
}

/** 16 random bytes as base64url (22 characters): a stored file's name cannot be guessed. */
export function unguessableUploadName(): string {
  return randomBytes(16).toString('base64url');
}

/** Stores an uploaded image, re-encoded, under an unguessable name in the blob store's `uploads/`: anyone may fetch it. */
export async function storeUploadedImage(
  ctx: AppContext,
  input: { bytes: Buffer; mimetype: string },
): Promise<{ url: string; storedBytes: number }> {
  const webp = await reencodeUploadedImage(input);
  const relativePath = `${uploadMonth()}/${unguessableUploadName()}.webp`;
  await blobStoreOf(ctx.env).put(`uploads/${relativePath}`, webp, { contentType: 'image/webp', visibility: 'public' });
  return { url: `${UPLOADS_URL_PREFIX}${relativePath}`, storedBytes: webp.length };
}

/**
 * Deletes a stored upload given its `/uploads/...` address (a buyer's erasure); answers
 * whether a file went. Addresses outside the store's `uploads/` (a Google picture) are left alone.
 */
export async function deleteUploadedFile(ctx: AppContext, url: string): Promise<boolean> {
  if (!url.startsWith(UPLOADS_URL_PREFIX)) return false;
  const key = `uploads/${url.slice(UPLOADS_URL_PREFIX.length)}`;
  if (!isBlobKey(key)) return false;
  return blobStoreOf(ctx.env).delete(key);
}
