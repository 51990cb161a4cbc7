import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import sharp from 'sharp';
import type { BlobStore } from './blob-store';

/** Widths the storefront asks for; anything else is rounded up to the next, so the variants stay bounded. */
export const IMAGE_WIDTHS = [64, 160, 320, 480, 640, 800, 1200, 1600] as const;
export const IMAGE_QUALITIES = [50, 75] as const;

export interface VariantRequest {
  width?: number;
  quality?: number;
  format?: 'webp' | 'original';
}

export interface ImageAnswer {
  body: Readable;
  contentType: string;
  etag: string;
  size: number;
}

function snapWidth(width: number): number {
  return IMAGE_WIDTHS.find((candidate) => candidate >= width) ?? Math.max(...IMAGE_WIDTHS);
}

function snapQuality(quality: number): number {
  return IMAGE_QUALITIES.find((candidate) => candidate >= quality) ?? Math.max(...IMAGE_QUALITIES);
}

/** The key of a variant: the original's key and etag decide it, so a changed original gets new variants. */
export function variantKey(originalKey: string, originalEtag: string, width: number | undefined, quality: number) {
  const digest = createHash('sha1').update(`${originalKey}|${originalEtag}`).digest('hex');
  return `variants/${digest.slice(0, 2)}/${digest}-w${width ?? 'full'}-q${quality}.webp`;
}

const inFlight = new Map<string, Promise<void>>();

/**
 * The original image, or a resized webp of it. A variant is made once with sharp and put in
 * the blob store, where every copy of the shop finds it; concurrent requests in one copy
 * share one conversion (two copies racing both write the same bytes to the same key).
 */
export async function imageVariant(
  store: BlobStore,
  originalKey: string,
  request: VariantRequest,
): Promise<ImageAnswer | null> {
  const original = await store.head(originalKey);
  if (!original || !original.contentType.startsWith('image/')) return null;
  const wantsVariant = request.format === 'webp' || request.width !== undefined || request.quality !== undefined;
  const resizable = original.contentType !== 'image/svg+xml' && original.contentType !== 'image/gif';
  if (!wantsVariant || !resizable) {
    const blob = await store.stream(originalKey);
    return blob && { body: blob.body, contentType: blob.contentType, etag: `"${blob.etag}"`, size: blob.size };
  }
  const width = request.width ? snapWidth(request.width) : undefined;
  const quality = snapQuality(request.quality ?? 75);
  const key = variantKey(originalKey, original.etag, width, quality);
  let variant = await store.stream(key);
  if (!variant) {
    let job = inFlight.get(key);
    if (!job) {
      job = (async () => {
        const bytes = await store.get(originalKey);
        if (!bytes) return;
        const webp = await sharp(bytes).resize({ width, withoutEnlargement: true }).webp({ quality }).toBuffer();
        await store.put(key, webp, { contentType: 'image/webp', visibility: 'public' });
      })().finally(() => inFlight.delete(key));
      inFlight.set(key, job);
    }
    await job;
    variant = await store.stream(key);
    if (!variant) return null;
  }
  const etag = `"${key.slice(key.lastIndexOf('/') + 1, -'.webp'.length)}"`;
  return { body: variant.body, contentType: 'image/webp', etag, size: variant.size };
}
