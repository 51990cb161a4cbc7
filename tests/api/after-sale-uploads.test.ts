import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { privateUploads } from '../../server/db/schema';
import { blobStoreOf } from '../../server/domains/media/blob-stores';
import { ownedPrivateUploads } from '../../server/domains/uploads/private-uploads.service';
import { ACCOUNT_TEST_ENV } from '../support/accounts';
import { makeBuyer, type Buyer } from '../support/buyers';
import { createSignedInStaff } from '../support/staff';
import { useTestApp } from '../support/test-server';

/** After-sale evidence photos: `POST /v1/upload?purpose=evidence` and `GET /v1/upload/private/<id>`. */
const server = useTestApp({ ...ACCOUNT_TEST_ENV, UPLOAD_MAX_BYTES: String(200 * 1024) });

/** A multipart body with one file in the field `image`, encoded as a browser's FormData would be. */
async function multipartBody(file: { bytes: Buffer; type: string }) {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(file.bytes)], { type: file.type }), 'photo');
  const encoded = new Request('http://shop.test/', { method: 'POST', body: form });
  return { body: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}

async function uploadEvidence(
  buyer: Buyer,
  file: { bytes: Buffer; type: string },
  lang = 'en',
  query = 'purpose=evidence',
) {
  const { body, contentType } = await multipartBody(file);
  return server.request(`/v1/upload?${query}`, {
    method: 'POST',
    rawBody: body,
    headers: { ...buyer.headers, lang, 'content-type': contentType },
  });
}

/** The answer as bytes (the test app's `request` reads text, which would mangle an image). */
async function fetchImage(url: string, headers: Record<string, string> = {}) {
  const answer = await server.app.inject({ method: 'GET', url, headers: { lang: 'en', ...headers } });
  return {
    status: answer.statusCode,
    headers: answer.headers,
    bytes: answer.rawPayload,
    body: String(answer.headers['content-type']).includes('json') ? answer.json() : undefined,
  };
}

const jpeg = async () => ({
  bytes: await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366ff' } })
    .jpeg()
    .withExif({ IFD0: { Artist: 'SECRET-ARTIST' } })
    .toBuffer(),
  type: 'image/jpeg',
});

const NOT_FOUND = { code: 404, msg: 'Not found', data: null };

let owner: Buyer;
let otherBuyer: Buyer;
let photoUrl: string;
beforeAll(async () => {
  owner = await makeBuyer(server);
  otherBuyer = await makeBuyer(server);
  const answer = await uploadEvidence(owner, await jpeg());
  photoUrl = answer.body.data;
});

describe('POST /v1/upload?purpose=evidence', () => {
  it('answers code 0 with a private address and stores the webp outside the public uploads', async () => {
    const answer = await uploadEvidence(owner, await jpeg());
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      code: 0,
      msg: 'Upload successful',
      data: expect.stringMatching(/^\/v1\/upload\/private\/[\w-]{22}$/),
    });
    const id = (answer.body.data as string).split('/').pop()!;
    const [row] = await server.ctx.db.select().from(privateUploads).where(eq(privateUploads.id, id));
    expect(row).toMatchObject({
      userId: owner.id,
      path: expect.stringMatching(new RegExp(`^\\d{4}-\\d\\d/${id}\\.webp$`)),
    });
    const stored = (await blobStoreOf(server.ctx.env).get(`private-uploads/${row!.path}`))!;
    expect(row!.bytes).toBe(stored.length);
    expect(stored.includes('SECRET-ARTIST')).toBe(false);
    // Nothing of it under the public folder's address.
    expect((await fetchImage(`/uploads/${row!.path}`)).status).toBe(404);
  });

  it('refuses a file that is not an image, in English and in Chinese', async () => {
    const text = { bytes: Buffer.from('hello'), type: 'text/plain' };
    expect((await uploadEvidence(owner, text)).body).toEqual({
      code: 400,
      msg: 'Only image files can be uploaded',
      data: null,
    });
    const fake = { bytes: Buffer.from('<?php echo 1; ?>'), type: 'image/png' };
    const chinese = await uploadEvidence(owner, fake, 'zh-cn');
    expect(chinese.status).toBe(400);
    expect(chinese.body).toEqual({ code: 400, msg: '只能上传图片文件', data: null });
  });

  it('refuses an image over UPLOAD_MAX_BYTES with 413', async () => {
    const noisy = await sharp(
      Buffer.from(Array.from({ length: 400 * 400 * 3 }, () => Math.floor(Math.random() * 256))),
      { raw: { width: 400, height: 400, channels: 3 } },
    )
      .png()
      .toBuffer();
    expect(noisy.length).toBeGreaterThan(200 * 1024);
    const answer = await uploadEvidence(owner, { bytes: noisy, type: 'image/png' });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ code: 413, msg: 'The image is too large (at most 200 KB)', data: null });
  });

  it('refuses an unknown purpose with 400, in English and in Chinese', async () => {
    const answer = await uploadEvidence(owner, await jpeg(), 'en', 'purpose=avatar');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ code: 400, msg: 'purpose must be one of evidence', data: null });
    const chinese = await uploadEvidence(owner, await jpeg(), 'zh-cn', 'purpose=avatar');
    expect(chinese.body).toEqual({ code: 400, msg: 'purpose必须是 evidence 之一', data: null });
  });

  it('needs a login (301)', async () => {
    const { body, contentType } = await multipartBody(await jpeg());
    const answer = await server.request('/v1/upload?purpose=evidence', {
      method: 'POST',
      rawBody: body,
      headers: { lang: 'en', 'content-type': contentType },
    });
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe(301);
  });
});

describe('GET /v1/upload/private/:id', () => {
  it('serves the owner the webp, privately, whether by token or by the session cookie', async () => {
    const byToken = await fetchImage(photoUrl, owner.headers);
    expect(byToken.status).toBe(200);
    expect(byToken.headers['content-type']).toBe('image/webp');
    expect(byToken.headers['cache-control']).toBe('private, max-age=3600');
    expect(byToken.headers['x-content-type-options']).toBe('nosniff');
    expect(byToken.headers.vary).toContain('Cookie');
    expect(byToken.bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(byToken.bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');
    expect(await sharp(byToken.bytes).metadata()).toMatchObject({ format: 'webp', width: 64, height: 48 });

    const byCookie = await fetchImage(photoUrl, { cookie: `access_token=${owner.headers.token}` });
    expect(byCookie.status).toBe(200);
    expect(byCookie.bytes.equals(byToken.bytes)).toBe(true);
  });

  it('answers another buyer and an anonymous visitor 404, exactly as for an id that does not exist', async () => {
    const other = await fetchImage(photoUrl, otherBuyer.headers);
    expect(other.status).toBe(404);
    expect(other.body).toEqual(NOT_FOUND);
    expect(other.headers['cache-control']).toBe('private, no-store');

    const anonymous = await fetchImage(photoUrl);
    expect(anonymous.status).toBe(404);
    expect(anonymous.body).toEqual(NOT_FOUND);

    const unknown = await fetchImage('/v1/upload/private/AAAAAAAAAAAAAAAAAAAAAA', owner.headers);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(NOT_FOUND);
    for (const malformed of ['short', '..%2F..%2Fetc%2Fpasswd', 'AAAAAAAAAAAAAAAAAAAAAA.webp']) {
      const answer = await fetchImage(`/v1/upload/private/${malformed}`, owner.headers);
      expect(answer.status, malformed).toBe(404);
      expect(answer.body, malformed).toEqual(NOT_FOUND);
    }
  });

  it('serves signed-in staff who may read orders or after-sales, and nobody else on the console', async () => {
    const reader = await createSignedInStaff(server, { permissions: ['orders:read'] });
    const answer = await fetchImage(photoUrl, { cookie: `staff_session=${reader.cookies.staff_session}` });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('image/webp');
    expect(answer.headers['cache-control']).toBe('private, max-age=3600');
    const afterSalesReader = await createSignedInStaff(server, { permissions: ['aftersales:read'] });
    const seen = await fetchImage(photoUrl, { cookie: `staff_session=${afterSalesReader.cookies.staff_session}` });
    expect(seen.status).toBe(200);

    const cataloguer = await createSignedInStaff(server, { permissions: ['catalog:write'] });
    const refused = await fetchImage(photoUrl, { cookie: `staff_session=${cataloguer.cookies.staff_session}` });
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual(NOT_FOUND);

    const forged = await fetchImage(photoUrl, { cookie: 'staff_session=not-a-session' });
    expect(forged.status).toBe(404);
  });
});

describe('ownedPrivateUploads', () => {
  it("answers true for the buyer's own photos and false for anyone else's or a public upload", async () => {
    const second = (await uploadEvidence(owner, await jpeg())).body.data as string;
    const theirs = (await uploadEvidence(otherBuyer, await jpeg())).body.data as string;
    const { body, contentType } = await multipartBody(await jpeg());
    const publicUpload = await server.request('/v1/upload', {
      method: 'POST',
      rawBody: body,
      headers: { ...owner.headers, 'content-type': contentType },
    });
    expect(publicUpload.body.data).toMatch(/^\/uploads\//);

    expect(await ownedPrivateUploads(server.ctx, owner.id, [photoUrl, second])).toBe(true);
    expect(await ownedPrivateUploads(server.ctx, owner.id, [photoUrl, photoUrl])).toBe(true);
    expect(await ownedPrivateUploads(server.ctx, owner.id, [])).toBe(true);
    expect(await ownedPrivateUploads(server.ctx, owner.id, [photoUrl, theirs])).toBe(false);
    expect(await ownedPrivateUploads(server.ctx, otherBuyer.id, [photoUrl])).toBe(false);
    expect(await ownedPrivateUploads(server.ctx, owner.id, [publicUpload.body.data])).toBe(false);
    expect(await ownedPrivateUploads(server.ctx, owner.id, ['/v1/upload/private/AAAAAAAAAAAAAAAAAAAAAA'])).toBe(false);
    expect(await ownedPrivateUploads(server.ctx, owner.id, ['https://example.com/photo.webp'])).toBe(false);
  });
});

describe("a customer's erasure", () => {
  it('deletes their private uploads, files and rows', async () => {
    const buyer = await makeBuyer(server);
    const url = (await uploadEvidence(buyer, await jpeg())).body.data as string;
    const id = url.split('/').pop()!;
    const [row] = await server.ctx.db.select().from(privateUploads).where(eq(privateUploads.id, id));
    const key = `private-uploads/${row!.path}`;
    expect(await blobStoreOf(server.ctx.env).head(key)).not.toBeNull();

    const officer = await createSignedInStaff(server, { permissions: ['customers:read', 'customers:erase'] });
    const erased = await officer.request(`/v1/admin/customers/${buyer.id}/erase`, {
      method: 'POST',
      body: { confirm_email: buyer.email },
    });
    expect(erased.body.data).toMatchObject({ erased_now: true, files_removed: 1 });
    expect(await blobStoreOf(server.ctx.env).head(key)).toBeNull();
    expect(await server.ctx.db.select().from(privateUploads).where(eq(privateUploads.id, id))).toEqual([]);
    const reader = await createSignedInStaff(server, { permissions: ['orders:read'] });
    expect((await fetchImage(url, { cookie: `staff_session=${reader.cookies.staff_session}` })).status).toBe(404);
  });
});
