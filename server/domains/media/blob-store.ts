import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where images and uploads live (docs/decisions/0150-blob-store-and-s3.md): a folder under
 * DATA_DIR (the zero-setup default, ./local-blob-store below) or an S3-compatible bucket
 * (./s3-blob-store.ts), chosen by configuration (./blob-stores.ts). Keys are our own paths
 * (`images/h/<hash>.webp`, `uploads/2026-11/<name>.webp`, `private-uploads/...`,
 * `variants/...`); nothing outside these prefixes can be named.
 */
export type BlobVisibility = 'public' | 'private';

export interface BlobWrite {
  contentType: string;
  /**
   * `private` blobs (customers' evidence photos) are only ever served through our own
   * authorized routes; `public` ones through `/images` and `/uploads`. Neither store hands
   * out a direct address: the bucket stays private either way.
   */
  visibility: BlobVisibility;
}

export interface BlobHead {
  size: number;
  contentType: string;
  /** Changes whenever the blob's bytes change: variants of a blob are keyed by it. */
  etag: string;
}

export interface BlobStream extends BlobHead {
  body: Readable;
}

export interface BlobStore {
  readonly kind: 'local' | 's3';
  /** Writes the whole blob or nothing: a reader never sees half of it. */
  put(key: string, bytes: Buffer, options: BlobWrite): Promise<void>;
  /** The bytes, or null when there is no such blob. */
  get(key: string): Promise<Buffer | null>;
  stream(key: string): Promise<BlobStream | null>;
  head(key: string): Promise<BlobHead | null>;
  /** True when a blob went; a missing one is not an error. */
  delete(key: string): Promise<boolean>;
}

const KEY = /^(images|uploads|private-uploads|variants)\/[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

/** Whether `key` is one of ours: one of the prefixes, plain path segments, no `..`. */
export function isBlobKey(key: string): boolean {
  return KEY.test(key) && !key.split('/').some((segment) => segment === '.' || segment === '..');
}

export function assertBlobKey(key: string): void {
  if (!isBlobKey(key)) throw new Error(`not a blob key: ${key}`);
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

/** The content type a key's extension names; the local store keeps no other record of it. */
export function contentTypeOfKey(key: string): string {
  return CONTENT_TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream';
}

/** Blobs as files below `root` (DATA_DIR): key `images/demo/a.webp` is `<root>/images/demo/a.webp`. */
export function localBlobStore(root: string): BlobStore {
  const base = path.resolve(root);
  const fileOf = (key: string) => {
    assertBlobKey(key);
    return path.join(base, key);
  };
  const statOf = async (key: string) => {
    if (!isBlobKey(key)) return null;
    try {
      const stat = await fs.stat(fileOf(key));
      return stat.isFile() ? stat : null;
    } catch (error) {
      if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return null;
      throw error;
    }
  };
  const headOf = (key: string, stat: { size: number; mtimeMs: number }): BlobHead => ({
    size: stat.size,
    contentType: contentTypeOfKey(key),
    etag: `${stat.size.toString(36)}-${Math.round(stat.mtimeMs).toString(36)}`,
  });
  return {
    kind: 'local',
    async put(key, bytes) {
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      try {
        await fs.writeFile(temporary, bytes);
        await fs.rename(temporary, file);
      } catch (error) {
        await fs.rm(temporary, { force: true });
        throw error;
      }
    },
    async get(key) {
      if (!(await statOf(key))) return null;
      return fs.readFile(fileOf(key));
    },
    async stream(key) {
      const stat = await statOf(key);
      if (!stat) return null;
      return { ...headOf(key, stat), body: createReadStream(fileOf(key)) };
    },
    async head(key) {
      const stat = await statOf(key);
      return stat ? headOf(key, stat) : null;
    },
    async delete(key) {
      if (!(await statOf(key))) return false;
      await fs.rm(fileOf(key), { force: true });
      return true;
    },
  };
}
