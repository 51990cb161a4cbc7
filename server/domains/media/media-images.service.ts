import { createHash } from 'node:crypto';
import sharp, { type Metadata } from 'sharp';
import type { ActingContext } from '../../context';
import { AppError, BadRequestError } from '../../shared/errors';
import { recordAudit } from '../audit/audit.service';
import type { BlobStore } from './blob-store';
import { blobStoreOf } from './blob-stores';
import type { StoredImage } from './media.schemas';

/**
 * Images the console uploads (product pictures, logos, favicons, content images): each is
 * decoded, re-encoded without its metadata (camera, GPS), and stored in the blob store under
 * the hash of its bytes, at `/images/h/<hash>.<ext>`, which never changes meaning and is
 * cached for a year (images.routes.ts). docs/decisions/0150-blob-store-and-s3.md
 */

export const HASHED_IMAGE_PREFIX = '/images/h/';
/** Images one request may carry. */
export const MEDIA_MAX_FILES = 10;
/** Decoding bigger pictures takes more memory than a shop image is worth. */
const MAX_MEGAPIXELS = 50;
const HASHED_FILE = /^([0-9a-f]{32})\.(jpg|png|webp|avif|gif)$/;

type Format = { extension: string; contentType: StoredImage['content_type'] };
const FORMATS: Record<string, Format> = {
  jpeg: { extension: 'jpg', contentType: 'image/jpeg' },
  png: { extension: 'png', contentType: 'image/png' },
  webp: { extension: 'webp', contentType: 'image/webp' },
  heif: { extension: 'avif', contentType: 'image/avif' },
  gif: { extension: 'gif', contentType: 'image/gif' },
};

export type MediaPurpose = 'catalog' | 'site';

export interface IncomingImage {
  /** The name the browser sent, only for messages and the audit log. */
  name: string;
  bytes: Buffer;
}

export class MediaTooLargeError extends AppError {
  /** `limit` as people read it (`20 MB`). */
  constructor(name: string, limit: string) {
    super('payloadTooLarge', 'adminMedia.tooLarge', { name, limit });
  }
}

/** The blob key of a `/images/h/<hash>.<ext>` file name; null for anything else. */
export function hashedImageKey(file: string): string | null {
  return HASHED_FILE.test(file) ? `images/h/${file}` : null;
}

interface PreparedImage extends StoredImage {
  key: string;
  name: string;
  stored: Buffer;
}

/** Decodes and re-encodes one image; refuses anything sharp cannot read as one of FORMATS. */
async function prepareImage(input: IncomingImage): Promise<PreparedImage> {
  const notImage = () => new BadRequestError('adminMedia.notImage', { name: input.name });
  let metadata: Metadata;
  try {
    metadata = await sharp(input.bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw notImage();
  }
  const format = FORMATS[metadata.format ?? ''];
  if (!format) throw notImage();
  if ((metadata.width ?? 0) * (metadata.pageHeight ?? metadata.height ?? 0) > MAX_MEGAPIXELS * 1_000_000)
    throw new BadRequestError('adminMedia.tooManyPixels', { name: input.name, limit: MAX_MEGAPIXELS });
  let stored: Buffer;
  let width: number;
  let height: number;
  try {
    if (format.extension === 'gif') {
      // An animation is kept as sent (re-encoding a GIF loses its palette); its size is checked above.
      stored = input.bytes;
      width = metadata.width ?? 0;
      height = metadata.pageHeight ?? metadata.height ?? 0;
    } else {
      const image = sharp(input.bytes, { limitInputPixels: MAX_MEGAPIXELS * 1_000_000 }).rotate();
      const encoded =
        format.extension === 'jpg'
          ? image.jpeg({ quality: 90, mozjpeg: true })
          : format.extension === 'png'
            ? image.png()
            : format.extension === 'webp'
              ? image.webp({ quality: 90 })
              : image.avif({ quality: 60 });
      const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
      stored = data;
      width = info.width;
      height = info.height;
    }
  } catch {
    throw notImage();
  }
  const hash = createHash('sha256').update(stored).digest('hex').slice(0, 32);
  const file = `${hash}.${format.extension}`;
  return {
    key: `images/h/${file}`,
    name: input.name,
    stored,
    url: `${HASHED_IMAGE_PREFIX}${file}`,
    width,
    height,
    bytes: stored.length,
    content_type: format.contentType,
  };
}

/**
 * Puts one image. Two uploads of the same picture at the same moment write the same bytes to
 * the same key: whichever write a store reports as failed, the image is there when a blob of
 * its size now is (its key is the hash of those very bytes).
 */
async function putImage(store: BlobStore, image: PreparedImage): Promise<void> {
  try {
    await store.put(image.key, image.stored, { contentType: image.content_type, visibility: 'public' });
  } catch (error) {
    const there = await store.head(image.key).catch(() => null);
    if (there?.size !== image.stored.length) throw error;
  }
}

/**
 * Stores the console's images: every one is checked before any is written, so a bad file in
 * a batch leaves nothing behind. Each stored image is audited (`media.image_uploaded`). A
 * failure after some were written leaves those: they are named by their bytes, so another
 * upload of the same picture may already use one, and an unused one costs only its bytes
 * (ADR 0150: there is no sweeper yet).
 */
export async function storeConsoleImages(
  ctx: ActingContext,
  input: { images: IncomingImage[]; purpose: MediaPurpose },
): Promise<StoredImage[]> {
  if (input.images.length === 0) throw new BadRequestError('adminMedia.missing');
  const prepared: PreparedImage[] = [];
  for (const image of input.images) prepared.push(await prepareImage(image));
  const store = blobStoreOf(ctx.env);
  const written = new Set<string>();
  for (const image of prepared) {
    if (written.has(image.key) || (await store.head(image.key))) continue;
    await putImage(store, image);
    written.add(image.key);
  }
  await ctx.db.transaction(async (tx) => {
    for (const image of prepared)
      await recordAudit(
        { ...ctx, db: tx },
        {
          action: 'media.image_uploaded',
          entityType: 'image',
          entityId: image.url,
          after: {
            name: image.name,
            purpose: input.purpose,
            width: image.width,
            height: image.height,
            bytes: image.bytes,
            content_type: image.content_type,
          },
        },
      );
  });
  return prepared.map(({ url, width, height, bytes, content_type }) => ({ url, width, height, bytes, content_type }));
}
