import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';

/** Widths the storefront asks for; anything else is rounded up to the next, so the cache stays bounded. */
export const IMAGE_WIDTHS = [64, 160, 320, 480, 640, 800, 1200, 1600] as const;
export const IMAGE_QUALITIES = [50, 75] as const;

export interface VariantRequest {
  /** Path below the images root, e.g. 'demo/linen-shirt-1.webp'. */
  relativePath: string;
  width?: number;
  quality?: number;
  format?: 'webp' | 'original';
}

export interface ImageFile {
  file: string;
  contentType: string;
  etag: string;
  size: number;
}

const CONTENT_TYPES: Record<string, string> = {
  '.webp': 'image/webp',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.avif': 'image/avif',
};

function snapWidth(width: number): number {
  return IMAGE_WIDTHS.find((candidate) => candidate >= width) ?? Math.max(...IMAGE_WIDTHS);
}

function snapQuality(quality: number): number {
  return IMAGE_QUALITIES.find((candidate) => candidate >= quality) ?? Math.max(...IMAGE_QUALITIES);
}

/** Null for paths that leave the images root or name no file: the caller answers 404. */
async function resolveOriginal(
  imagesRoot: string,
  relativePath: string,
): Promise<{ file: string; mtimeMs: number; size: number } | null> {
  const file = path.resolve(imagesRoot, relativePath);
  if (!file.startsWith(path.resolve(imagesRoot) + path.sep)) return null;
  try {
    const stat = await fs.stat(file);
    return stat.isFile() ? { file, mtimeMs: stat.mtimeMs, size: stat.size } : null;
  } catch {
    return null;
  }
}

const inFlight = new Map<string, Promise<void>>();

/**
 * The original file, or a resized webp of it made once with sharp and kept under
 * `cacheRoot`. Concurrent requests for the same new variant share one conversion.
 */
export async function imageVariant(
  imagesRoot: string,
  cacheRoot: string,
  request: VariantRequest,
): Promise<ImageFile | null> {
  const original = await resolveOriginal(imagesRoot, request.relativePath);
  if (!original) return null;
  const extension = path.extname(original.file).toLowerCase();
  const contentType = CONTENT_TYPES[extension];
  if (!contentType) return null;
  const wantsVariant = request.format === 'webp' || request.width !== undefined || request.quality !== undefined;
  if (!wantsVariant || extension === '.svg' || extension === '.gif') {
    return {
      file: original.file,
      contentType,
      etag: `"${original.size.toString(36)}-${Math.round(original.mtimeMs).toString(36)}"`,
      size: original.size,
    };
  }
  const width = request.width ? snapWidth(request.width) : undefined;
  const quality = snapQuality(request.quality ?? 75);
  const key = createHash('sha1')
    .update(`${original.file}|${original.mtimeMs}|${width ?? 'full'}|${quality}`)
    .digest('hex');
  const file = path.join(cacheRoot, key.slice(0, 2), `${key}.webp`);
  const existing = await fs.stat(file).catch(() => null);
  if (!existing) {
    let job = inFlight.get(file);
    if (!job) {
      job = (async () => {
        await fs.mkdir(path.dirname(file), { recursive: true });
        const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
        await sharp(original.file).resize({ width, withoutEnlargement: true }).webp({ quality }).toFile(temporary);
        await fs.rename(temporary, file);
      })().finally(() => inFlight.delete(file));
      inFlight.set(file, job);
    }
    await job;
  }
  const size = existing?.size ?? (await fs.stat(file)).size;
  return { file, contentType: 'image/webp', etag: `"${key.slice(0, 20)}"`, size };
}
