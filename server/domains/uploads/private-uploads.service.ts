import type { Readable } from 'node:stream';
import { and, eq, inArray } from 'drizzle-orm';
import { privateUploads } from '../../db/schema';
import { markPersonal, type AppContext } from '../../context';
import { isBlobKey } from '../media/blob-store';
import { blobStoreOf } from '../media/blob-stores';
import { reencodeUploadedImage, unguessableUploadName, uploadMonth } from './uploads.service';

/**
 * Evidence photos of after-sale requests: stored like public uploads (re-encoded webp, no
 * metadata) but as private blobs under `private-uploads/` (the blob store: a folder under
 * DATA_DIR or a private bucket), outside every public route, with a `private_uploads` row
 * naming their owner. They are served by `GET /v1/upload/private/<id>`
 * to that buyer and to staff who may read orders, and to nobody else.
 */

export const PRIVATE_UPLOADS_URL_PREFIX = '/v1/upload/private/';

/** What `unguessableUploadName` makes (22 characters), with room should it grow; nothing else can be an id. */
const PRIVATE_UPLOAD_ID = /^[A-Za-z0-9_-]{22,64}$/;

/** The blob key of a private upload's row path (`2026-11/<id>.webp`). */
const privateKey = (relativePath: string) => `private-uploads/${relativePath}`;

/** The id in a `/v1/upload/private/<id>` address; null for any other address. */
function privateUploadIdOf(url: string): string | null {
  if (!url.startsWith(PRIVATE_UPLOADS_URL_PREFIX)) return null;
  const id = url.slice(PRIVATE_UPLOADS_URL_PREFIX.length);
  return PRIVATE_UPLOAD_ID.test(id) ? id : null;
}

/**
 * Stores a buyer's evidence photo: the blob first, then its row, so a row never names a
 * missing blob (a blob left without its row, when the insert fails, is removed).
 */
export async function storePrivateImage(
  ctx: AppContext,
  userId: number,
  input: { bytes: Buffer; mimetype: string },
): Promise<{ url: string; storedBytes: number }> {
  const webp = await reencodeUploadedImage(input);
  const id = unguessableUploadName();
  const relativePath = `${uploadMonth()}/${id}.webp`;
  const store = blobStoreOf(ctx.env);
  await store.put(privateKey(relativePath), webp, { contentType: 'image/webp', visibility: 'private' });
  try {
    await ctx.db.insert(privateUploads).values({ id, userId, path: relativePath, bytes: webp.length });
  } catch (error) {
    await store.delete(privateKey(relativePath));
    throw error;
  }
  return { url: `${PRIVATE_UPLOADS_URL_PREFIX}${id}`, storedBytes: webp.length };
}

/** Who asks for a private upload: the signed-in buyer, and whether a staff member who may read orders is signed in. */
export interface PrivateUploadViewer {
  userId: number | null;
  staffMaySeeEvidence: boolean;
}

/**
 * The bytes of a private upload, as a stream, if `viewer` may see it: its owner, or staff who
 * may read orders. Null for everyone else, and for an id that is malformed, unknown or whose
 * blob is gone, so a caller cannot tell "not yours" from "does not exist".
 */
export async function privateUploadForViewer(
  ctx: AppContext,
  id: string,
  viewer: PrivateUploadViewer,
): Promise<{ body: Readable; bytes: number } | null> {
  // Whoever is allowed, the answer depends on who asks: no shared cache may keep it.
  markPersonal(ctx);
  if (!PRIVATE_UPLOAD_ID.test(id)) return null;
  const [upload] = await ctx.db
    .select({ userId: privateUploads.userId, path: privateUploads.path })
    .from(privateUploads)
    .where(eq(privateUploads.id, id));
  if (!upload) return null;
  if (upload.userId !== viewer.userId && !viewer.staffMaySeeEvidence) return null;
  const blob = await blobStoreOf(ctx.env).stream(privateKey(upload.path));
  return blob && { body: blob.body, bytes: blob.size };
}

/**
 * True when every address is a `/v1/upload/private/<id>` of an upload `userId` owns (and
 * for no addresses at all): an after-sale request may only show its buyer's own photos.
 */
export async function ownedPrivateUploads(ctx: AppContext, userId: number, urls: string[]): Promise<boolean> {
  const ids = new Set<string>();
  for (const url of urls) {
    const id = privateUploadIdOf(url);
    if (!id) return false;
    ids.add(id);
  }
  if (ids.size === 0) return true;
  const owned = await ctx.db
    .select({ id: privateUploads.id })
    .from(privateUploads)
    .where(and(eq(privateUploads.userId, userId), inArray(privateUploads.id, [...ids])));
  return owned.length === ids.size;
}

/**
 * Forgets every private upload of a buyer (their erasure), inside the caller's transaction;
 * answers the files to delete with `deletePrivateUploadFiles` once it has committed.
 */
export async function forgetPrivateUploadsOf(ctx: AppContext, userId: number): Promise<string[]> {
  const forgotten = await ctx.db
    .delete(privateUploads)
    .where(eq(privateUploads.userId, userId))
    .returning({ path: privateUploads.path });
  return forgotten.map((upload) => upload.path);
}

/** Deletes forgotten private uploads' blobs; answers how many went (one already gone is not an error). */
export async function deletePrivateUploadFiles(ctx: AppContext, relativePaths: readonly string[]): Promise<number> {
  const store = blobStoreOf(ctx.env);
  let deleted = 0;
  for (const relativePath of relativePaths) {
    // Paths come from our own rows, but a key outside `private-uploads/` is never ours to delete.
    const key = privateKey(relativePath);
    if (isBlobKey(key) && (await store.delete(key))) deleted += 1;
  }
  return deleted;
}
