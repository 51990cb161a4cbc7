import { createHash } from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import sharp from 'sharp';
import type { MessageKey } from '../../../i18n';
import type { ActingContext } from '../../context';
import { AppError } from '../../shared/errors';
import { storeConsoleImages } from '../media/media-images.service';

/**
 * Images a product CSV names by a web address (ADR 0161): fetched under strict limits, then
 * stored through the console's own upload path (storeConsoleImages: decoded, re-encoded,
 * content-hashed `/images/h/` URL), so a file cannot make the shop reach into its own network
 * or hold an unbounded download. A dry run fetches and decodes without storing anything.
 */

/** Addresses the import never fetches from unless the host is trusted (IMPORT_IMAGE_TRUSTED_HOSTS). */
const PRIVATE = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, with the cloud metadata address 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
] as const)
  PRIVATE.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96], // NAT64 can reach private IPv4 through a gateway
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215)
  ['100::', 64],
  ['2001::', 32], // Teredo
  ['2001:db8::', 32],
  ['2002::', 16], // 6to4 carries an IPv4 address of any kind
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10],
  ['ff00::', 8], // multicast
] as const)
  PRIVATE.addSubnet(address, prefix, 'ipv6');

/** True for an address on the shop's own network, loopback, link-local, multicast or reserved. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family !== 6) return true;
  // IPv4-mapped (::ffff:a.b.c.d, also written ::ffff:xxxx:yyyy): the IPv4 address it carries decides.
  const normal = new URL(`http://[${address}]/`).hostname.slice(1, -1).toLowerCase();
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(normal);
  if (mapped) {
    const [high, low] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
    return PRIVATE.check(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, 'ipv4');
  }
  return PRIVATE.check(normal, 'ipv6');
}

export interface ImageFetchLimits {
  /** Hosts (`name` or `name:port`) an operator trusts on their own network: no address check. */
  trustedHosts: ReadonlySet<string>;
  maxBytes: number;
  /** Connect, redirects and body together. */
  timeoutMs: number;
  maxRedirects: number;
}

/** Why an image could not be fetched: a message key of adminProductCsv with its parameters. */
export class ImageFetchError extends Error {
  constructor(
    readonly key: MessageKey,
    readonly params: Record<string, string | number> = {},
  ) {
    super(key);
  }
}

const refuse = (key: MessageKey, params?: Record<string, string | number>) => new ImageFetchError(key, params);

function trusted(url: URL, limits: ImageFetchLimits): boolean {
  return limits.trustedHosts.has(url.host.toLowerCase()) || limits.trustedHosts.has(url.hostname.toLowerCase());
}

/**
 * A DNS lookup that refuses the connection when any address of the name is private: the check
 * is on the very addresses the socket connects to, so a name that resolves differently the
 * second time (DNS rebinding) is caught too.
 */
const guardedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as dns.LookupAddress[];
    if (list.length === 0 || list.some((entry) => isPrivateAddress(entry.address)))
      return callback(Object.assign(new Error('private address'), { code: 'EPRIVATE' }), '', 0);
    if ((options as dns.LookupOptions).all)
      return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};

interface Answer {
  status: number;
  location: string | undefined;
  body: Buffer;
}

function requestOnce(url: URL, limits: ImageFetchLimits, signal: AbortSignal): Promise<Answer> {
  const isTrusted = trusted(url, limits);
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (!isTrusted && net.isIP(literal) && isPrivateAddress(literal))
    return Promise.reject(refuse('adminProductCsv.image.private'));
  const get = url.protocol === 'https:' ? https.get : http.get;
  return new Promise((resolve, reject) => {
    const request = get(
      url,
      { signal, headers: { accept: 'image/*' }, ...(isTrusted ? {} : { lookup: guardedLookup }) },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          response.resume();
          resolve({ status, location: response.headers.location, body: Buffer.alloc(0) });
          return;
        }
        if (status !== 200) {
          response.resume();
          reject(refuse('adminProductCsv.image.status', { status }));
          return;
        }
        const declared = Number(response.headers['content-length'] ?? 0);
        if (declared > limits.maxBytes) {
          response.destroy();
          reject(refuse('adminProductCsv.image.tooLarge', { limit: `${Math.round(limits.maxBytes / 1048576)} MB` }));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          // Counted while it arrives: a server that lies about the length stops here.
          if (size > limits.maxBytes) {
            response.destroy();
            reject(refuse('adminProductCsv.image.tooLarge', { limit: `${Math.round(limits.maxBytes / 1048576)} MB` }));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => resolve({ status, location: undefined, body: Buffer.concat(chunks) }));
        response.on('error', (error) => reject(error));
      },
    );
    request.on('error', reject);
  });
}

/** The bytes at `address`, following at most `maxRedirects` redirects, each one checked again. */
export async function fetchImageBytes(address: string, limits: ImageFetchLimits): Promise<Buffer> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw refuse('adminProductCsv.image.scheme');
  }
  for (let redirects = 0; ; redirects += 1) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse('adminProductCsv.image.scheme');
    if (url.username || url.password) throw refuse('adminProductCsv.image.scheme');
    let answer: Answer;
    try {
      answer = await requestOnce(url, limits, signal);
    } catch (error) {
      if (error instanceof ImageFetchError) throw error;
      if (signal.aborted)
        throw refuse('adminProductCsv.image.timeout', { seconds: Math.round(limits.timeoutMs / 1000) });
      if ((error as { code?: string }).code === 'EPRIVATE') throw refuse('adminProductCsv.image.private');
      throw refuse('adminProductCsv.image.unreachable', { host: url.host });
    }
    if (!answer.location && answer.status >= 300)
      throw refuse('adminProductCsv.image.status', { status: answer.status });
    if (!answer.location) return answer.body;
    if (redirects >= limits.maxRedirects)
      throw refuse('adminProductCsv.image.redirects', { limit: limits.maxRedirects });
    try {
      url = new URL(answer.location, url);
    } catch {
      // A Location the URL parser refuses ('http://[::1') fails this row, never the whole import.
      throw refuse('adminProductCsv.image.scheme');
    }
  }
}

const FORMATS = new Set(['jpeg', 'png', 'webp', 'heif', 'gif']);
const MAX_PIXELS = 50_000_000;

/** Decodes the whole picture (not only its header) and answers its size; refuses anything else. */
async function decodedSize(bytes: Buffer): Promise<{ width: number; height: number }> {
  try {
    const meta = await sharp(bytes, { limitInputPixels: MAX_PIXELS }).metadata();
    if (!FORMATS.has(meta.format ?? '') || !meta.width || !meta.height) throw new Error('not an image');
    await sharp(bytes, { limitInputPixels: MAX_PIXELS }).resize(16).toBuffer();
    return { width: meta.width, height: meta.pageHeight ?? meta.height };
  } catch {
    throw refuse('adminProductCsv.image.notImage');
  }
}

export interface FetchedImage {
  /** The shop's own `/images/h/` URL once stored; in a dry run a stand-in under `/images/fetched/`. */
  url: string;
  width: number;
  height: number;
}

export type ImageOutcome = { ok: true; image: FetchedImage } | { ok: false; error: ImageFetchError };

/**
 * Fetches every address, at most `concurrency` at once. With `store`, each image goes through
 * the console's upload path (one call per image, so one bad picture fails only its row).
 */
export async function fetchCsvImages(
  ctx: ActingContext,
  addresses: string[],
  options: { store: boolean; limits: ImageFetchLimits; concurrency: number; onFetched?: (done: number) => void },
): Promise<Map<string, ImageOutcome>> {
  const outcomes = new Map<string, ImageOutcome>();
  let next = 0;
  const worker = async () => {
    while (next < addresses.length) {
      const address = addresses[next]!;
      next += 1;
      try {
        const bytes = await fetchImageBytes(address, options.limits);
        if (!options.store) {
          // The stored address is known only once the picture is re-encoded; a dry run stores nothing.
          const standIn = `/images/fetched/${createHash('sha256').update(address).digest('hex').slice(0, 32)}`;
          outcomes.set(address, { ok: true, image: { url: standIn, ...(await decodedSize(bytes)) } });
          continue;
        }
        const [stored] = await storeConsoleImages(ctx, {
          // The audit names the picture by its origin and path: a signed address's query is a credential.
          images: [{ name: withoutQuery(address).slice(0, 200), bytes }],
          purpose: 'catalog',
        });
        outcomes.set(address, { ok: true, image: { url: stored!.url, width: stored!.width, height: stored!.height } });
      } catch (error) {
        if (error instanceof ImageFetchError) outcomes.set(address, { ok: false, error });
        else if (error instanceof AppError && error.kind === 'payloadTooLarge')
          outcomes.set(address, {
            ok: false,
            error: refuse('adminProductCsv.image.tooLarge', {
              limit: `${Math.round(options.limits.maxBytes / 1048576)} MB`,
            }),
          });
        else if (error instanceof AppError && error.kind === 'badRequest')
          outcomes.set(address, { ok: false, error: refuse('adminProductCsv.image.notImage') });
        else throw error;
      }
      options.onFetched?.(outcomes.size);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, addresses.length) }, worker));
  return outcomes;
}

function withoutQuery(address: string): string {
  const url = new URL(address);
  return url.origin + url.pathname;
}

/** An address the import fetches: http(s) and not one of the shop's own images. */
export function isRemoteImage(address: string): boolean {
  return /^https?:\/\//i.test(address);
}
