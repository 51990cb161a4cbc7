import { createHash } from 'node:crypto';
import negotiate from '@fastify/accept-negotiator';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';

export interface CachedPage {
  status: number;
  headers: Array<[string, string]>;
  body: Buffer;
  gzip: Buffer | null;
  brotli: Buffer | null;
  etag: string;
  storedAt: number;
  /** When get() last moved the entry to the recently used end (see TOUCH_EVERY_MS). */
  touchedAt: number;
}

const COMPRESS_FROM_BYTES = 1024;
/**
 * A hit moves its entry to the recently used end of the map at most this often: a Map
 * delete and insert on every hit cost more than the lookup itself, and eviction order
 * only needs to be right to within a second.
 */
const TOUCH_EVERY_MS = 1_000;
/** Headers that describe one visitor or one response, never copied into the cache. */
const UNCACHEABLE_HEADERS = new Set([
  'set-cookie',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'date',
  'etag',
]);

/**
 * Rendered anonymous pages, keyed by path, query and the cookies that change the HTML
 * (colour mode, display currency) plus the content version. Least recently used entries
 * go first once the entry or byte budget is reached. Compressed copies are made once per
 * entry, so a hit costs no rendering and no compression.
 */
export class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  private bytes = 0;

  constructor(private readonly options: { ttlMs: number; maxEntries: number; maxBytes: number }) {}

  get(key: string, now = Date.now()): CachedPage | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now - entry.storedAt > this.options.ttlMs) {
      this.delete(key);
      return undefined;
    }
    if (now - entry.touchedAt >= TOUCH_EVERY_MS) {
      entry.touchedAt = now;
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, page: { status: number; headers: Headers; body: Buffer }): CachedPage {
    const headers = [...page.headers].filter(([name]) => !UNCACHEABLE_HEADERS.has(name));
    const compressible = page.body.length >= COMPRESS_FROM_BYTES;
    const entry: CachedPage = {
      status: page.status,
      headers,
      body: ownBytes(page.body),
      gzip: compressible ? exactCopy(gzipSync(page.body, { level: 6 })) : null,
      brotli: compressible
        ? exactCopy(brotliCompressSync(page.body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 6 } }))
        : null,
      etag: `"${createHash('sha1').update(page.body).digest('base64url').slice(0, 22)}"`,
      storedAt: Date.now(),
      touchedAt: Date.now(),
    };
    this.delete(key);
    this.entries.set(key, entry);
    this.bytes += this.sizeOf(entry);
    while (this.entries.size > this.options.maxEntries || this.bytes > this.options.maxBytes) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.delete(oldest);
    }
    return entry;
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= this.sizeOf(entry);
    this.entries.delete(key);
  }

  private sizeOf(entry: CachedPage): number {
    return entry.body.length + (entry.gzip?.length ?? 0) + (entry.brotli?.length ?? 0);
  }
}

/**
 * A small Buffer.from(string) (an API answer) is a view into Node's shared 8 KB pool: kept as
 * it is, each one would hold a whole slab while the budget counted only its own bytes.
 */
function ownBytes(body: Buffer): Buffer {
  return body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body : exactCopy(body);
}

/** zlib hands back views into its larger output chunks; a cache entry keeps only its own bytes. */
function exactCopy(view: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(view.length);
  view.copy(copy);
  return copy;
}

export type Encoding = 'br' | 'gzip';

const SUPPORTED_ENCODINGS = ['br', 'gzip', 'identity'];

/**
 * The encoding an Accept-Encoding header prefers among ours, by its q-values (`gzip;q=0`
 * refuses gzip). Browsers send a handful of distinct values, so short ones are remembered.
 */
const preferredEncodings = new Map<string, Encoding | undefined>();

export function preferredEncoding(acceptEncoding: string): Encoding | undefined {
  if (preferredEncodings.has(acceptEncoding)) return preferredEncodings.get(acceptEncoding);
  const chosen = negotiate(acceptEncoding.toLowerCase(), SUPPORTED_ENCODINGS);
  const encoding = chosen === 'br' || chosen === 'gzip' ? chosen : undefined;
  if (acceptEncoding.length <= 200) {
    if (preferredEncodings.size >= 256) preferredEncodings.clear();
    preferredEncodings.set(acceptEncoding, encoding);
  }
  return encoding;
}

/** The smallest encoding the client accepts that the page has; undefined for the plain body. */
export function encodingFor(acceptEncoding: string | undefined, page: CachedPage): Encoding | undefined {
  if (!acceptEncoding || !page.gzip) return undefined;
  return preferredEncoding(acceptEncoding);
}

/** The page's bytes in an encoding encodingFor chose. */
export function bodyFor(page: CachedPage, encoding: Encoding | undefined): Buffer {
  return encoding === 'br' ? page.brotli! : encoding === 'gzip' ? page.gzip! : page.body;
}

/** Picks the smallest encoding the client accepts. */
export function chooseEncoding(
  acceptEncoding: string | undefined,
  page: CachedPage,
): { body: Buffer; encoding?: Encoding } {
  const encoding = encodingFor(acceptEncoding, page);
  return encoding ? { body: bodyFor(page, encoding), encoding } : { body: page.body };
}
