import type { BlobStore } from '../domains/media/blob-store';

/**
 * Which content-hashed address each demo drawing was published under, kept in the blob store
 * itself: every copy of the shop reads the same one, so a copy that starts on a new host
 * against a bucket already filled need not redraw anything, and `/images/demo/<name>.webp`
 * links (order lines and mails from before the pictures moved) can be redirected by any copy.
 * It is not an image, so the images routes never serve it.
 */
export interface DemoImageManifest {
  artVersion: string;
  /** Drawing name to `/images/h/<hash>.webp`. */
  images: Record<string, string>;
}

const MANIFEST_KEY = 'images/demo/manifest.json';
const DEMO_FILE = /^([a-z0-9-]+)\.webp$/;
/** How long a copy trusts the manifest it read before reading it again (another copy may have redrawn). */
const REMEMBER_MS = 60_000;

function parseManifest(bytes: Buffer): DemoImageManifest | null {
  try {
    const value = JSON.parse(bytes.toString('utf8')) as Partial<DemoImageManifest>;
    if (typeof value.artVersion !== 'string' || typeof value.images !== 'object' || !value.images) return null;
    const images = Object.fromEntries(
      Object.entries(value.images).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
    return { artVersion: value.artVersion, images };
  } catch {
    return null;
  }
}

/** The manifest in `store`, or null when there is none (or it cannot be read as one). */
export async function readDemoImageManifest(store: BlobStore): Promise<DemoImageManifest | null> {
  const bytes = await store.get(MANIFEST_KEY);
  return bytes && parseManifest(bytes);
}

export async function writeDemoImageManifest(store: BlobStore, manifest: DemoImageManifest): Promise<void> {
  await store.put(MANIFEST_KEY, Buffer.from(JSON.stringify(manifest)), {
    contentType: 'application/json',
    visibility: 'public',
  });
  remembered.delete(store);
}

const remembered = new WeakMap<BlobStore, { manifest: Promise<DemoImageManifest | null>; readAt: number }>();

/**
 * Where an old `/images/demo/<name>.webp` picture lives now (`/images/h/<hash>.webp`), or null
 * for a name the demo never drew. The manifest is read at most once a minute per copy.
 */
export async function demoImageAddress(store: BlobStore, file: string): Promise<string | null> {
  const name = DEMO_FILE.exec(file)?.[1];
  if (!name) return null;
  let entry = remembered.get(store);
  if (!entry || performance.now() - entry.readAt > REMEMBER_MS) {
    entry = { manifest: readDemoImageManifest(store), readAt: performance.now() };
    remembered.set(store, entry);
    // A failed read is not remembered: the next request tries again.
    entry.manifest.catch(() => remembered.delete(store));
  }
  const manifest = await entry.manifest;
  return Object.hasOwn(manifest?.images ?? {}, name) ? manifest!.images[name]! : null;
}
