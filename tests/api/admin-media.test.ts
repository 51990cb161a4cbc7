import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../server/db/schema';
import { blobStoreOf } from '../../server/domains/media/blob-stores';
import { variantKey } from '../../server/domains/media/image-variants';
import { png, uniqueColour, uploadImages } from '../support/console-images';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { useTestServer } from '../support/test-server';

const server = useTestServer();
let catalogue: TestStaff;
let fulfilment: TestStaff;
let settings: TestStaff;
beforeAll(async () => {
  catalogue = await createSignedInStaff(server, { role: 'catalogue' });
  fulfilment = await createSignedInStaff(server, { role: 'fulfilment' });
  settings = await createSignedInStaff(server, { permissions: ['settings:write'] });
});

async function jpegWithExif(): Promise<Buffer> {
  return sharp({ create: { width: 900, height: 600, channels: 3, background: uniqueColour() } })
    .jpeg()
    .withExif({ IFD0: { Copyright: 'SECRET-OWNER', Artist: 'SECRET-ARTIST' } })
    .toBuffer();
}

/** A GIF is stored as sent, so its URL is the hash of these very bytes. */
async function gif(): Promise<{ bytes: Buffer; url: string }> {
  const bytes = await sharp({ create: { width: 40, height: 30, channels: 3, background: uniqueColour() } })
    .gif()
    .toBuffer();
  return { bytes, url: `/images/h/${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.gif` };
}

describe('POST /v1/admin/media/images', () => {
  it('stores several images under content-hashed URLs with their sizes, without their metadata', async () => {
    const answer = await uploadImages(server, catalogue, [
      { name: 'front.png', bytes: await png(320, 200) },
      { name: 'detail.jpg', bytes: await jpegWithExif(), type: 'image/jpeg' },
    ]);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      code: 200,
      msg: 'ok',
      data: {
        images: [
          {
            url: expect.stringMatching(/^\/images\/h\/[0-9a-f]{32}\.png$/),
            width: 320,
            height: 200,
            bytes: expect.any(Number),
            content_type: 'image/png',
          },
          {
            url: expect.stringMatching(/^\/images\/h\/[0-9a-f]{32}\.jpg$/),
            width: 900,
            height: 600,
            bytes: expect.any(Number),
            content_type: 'image/jpeg',
          },
        ],
      },
    });
    const [front, detail] = answer.body.data.images;
    const served = await fetch(server.url + detail.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.length).toBe(detail.bytes);
    expect((await sharp(bytes).metadata()).exif).toBeUndefined();
    expect(bytes.includes('SECRET-OWNER')).toBe(false);
    // The hash is the stored bytes': the URL is their fingerprint.
    expect(detail.url).toBe(`/images/h/${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.jpg`);
    const events = await server.ctx.db
      .select({ actorId: auditEvents.actorId, changes: auditEvents.changes })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'media.image_uploaded'), eq(auditEvents.entityId, front.url)));
    expect(events).toEqual([
      {
        actorId: catalogue.id,
        changes: {
          name: { after: 'front.png' },
          purpose: { after: 'catalog' },
          width: { after: 320 },
          height: { after: 200 },
          bytes: { after: front.bytes },
          content_type: { after: 'image/png' },
        },
      },
    ]);
  });

  it('serves resized webp variants of a hashed image, immutable, made once and kept in the blob store', async () => {
    const answer = await uploadImages(server, catalogue, [{ name: 'wide.png', bytes: await png(1000, 500) }]);
    const { url } = answer.body.data.images[0];
    const variant = await fetch(`${server.url}${url}?w=300`);
    expect(variant.status).toBe(200);
    expect(variant.headers.get('content-type')).toBe('image/webp');
    expect(variant.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const metadata = await sharp(Buffer.from(await variant.arrayBuffer())).metadata();
    // 300 snaps up to the next width the storefront uses.
    expect(metadata).toMatchObject({ format: 'webp', width: 320, height: 160 });
    const etag = variant.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{40}-w320-q75"$/);
    const again = await fetch(`${server.url}${url}?w=320`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    const store = blobStoreOf(server.ctx.env);
    const original = await store.head(url.replace(/^\//, ''));
    expect(await store.head(variantKey(url.replace(/^\//, ''), original!.etag, 320, 75))).toMatchObject({
      contentType: 'image/webp',
    });
  });

  it('gives the same image the same URL', async () => {
    const bytes = await png(64, 64);
    const first = await uploadImages(server, catalogue, [{ name: 'a.png', bytes }]);
    const second = await uploadImages(server, catalogue, [{ name: 'b.png', bytes }]);
    expect(second.body.data.images[0].url).toBe(first.body.data.images[0].url);
  });

  it('stores the same image sent by several uploads at the same moment once, under one URL, for all of them', async () => {
    const bytes = await png(300, 200);
    const answers = await Promise.all(
      ['a.png', 'b.png', 'c.png', 'd.png'].map((name) => uploadImages(server, catalogue, [{ name, bytes }])),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    const urls = new Set(answers.map((answer) => answer.body.data.images[0].url as string));
    expect(urls.size).toBe(1);
    const [url] = [...urls];
    const served = await fetch(server.url + url!);
    expect(served.status).toBe(200);
    const stored = Buffer.from(await served.arrayBuffer());
    expect(stored.length).toBe(answers[0]!.body.data.images[0].bytes);
    expect(await sharp(stored).metadata()).toMatchObject({ format: 'png', width: 300, height: 200 });
    const audited = await server.ctx.db
      .select({ id: auditEvents.id })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'media.image_uploaded'), eq(auditEvents.entityId, url!)));
    expect(audited).toHaveLength(4);
  });

  it('refuses what is not an image, in both languages, and stores nothing of the batch', async () => {
    const good = await gif();
    const notImage = { name: 'notes.png', bytes: Buffer.from('<script>alert(1)</script>'), type: 'image/png' };
    const en = await uploadImages(server, catalogue, [{ name: 'ok.gif', bytes: good.bytes }, notImage]);
    expect(en).toEqual({
      status: 400,
      body: {
        code: 400,
        msg: 'notes.png is not an image this shop can use (JPEG, PNG, WebP, AVIF or GIF)',
        data: null,
      },
    });
    const zh = await uploadImages(server, catalogue, [notImage], { lang: 'zh-cn' });
    expect(zh.body.msg).toBe('notes.png 不是可用的图片（支持 JPEG、PNG、WebP、AVIF、GIF）');
    expect(await blobStoreOf(server.ctx.env).head(good.url.slice(1))).toBeNull();
    expect((await fetch(server.url + good.url)).status).toBe(404);
  });

  it('refuses SVG (it can carry script)', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>1</script></svg>');
    const answer = await uploadImages(server, catalogue, [{ name: 'logo.svg', bytes: svg, type: 'image/svg+xml' }]);
    expect(answer.status).toBe(400);
    expect(answer.body.msg).toBe('logo.svg is not an image this shop can use (JPEG, PNG, WebP, AVIF or GIF)');
  });

  it('answers a 30 MB upload with a localized 413 and stores nothing of the batch', async () => {
    const good = await gif();
    const big = { name: 'huge.jpg', bytes: Buffer.alloc(30 * 1024 * 1024, 7), type: 'image/jpeg' };
    const en = await uploadImages(server, catalogue, [{ name: 'ok.gif', bytes: good.bytes }, big]);
    expect(en).toEqual({
      status: 413,
      body: { code: 413, msg: 'huge.jpg is too large: an image may be at most 20 MB', data: null },
    });
    const zh = await uploadImages(server, catalogue, [big], { lang: 'zh-cn' });
    expect(zh.status).toBe(413);
    expect(zh.body.msg).toBe('huge.jpg 过大：单张图片最大 20 MB');
    expect(await blobStoreOf(server.ctx.env).head(good.url.slice(1))).toBeNull();
  });

  it('asks for a file when there is none, and refuses more than ten at once', async () => {
    const none = await uploadImages(server, catalogue, []);
    expect(none).toEqual({ status: 400, body: { code: 400, msg: 'Choose one or more images to upload', data: null } });
    const json = await catalogue.request('/v1/admin/media/images', { method: 'POST', body: { url: 'x' } });
    expect(json.status).toBe(400);
    expect(json.body.msg).toBe('Choose one or more images to upload');
    const bytes = await png(16, 16);
    const eleven = Array.from({ length: 11 }, (_, index) => ({ name: `${index}.png`, bytes }));
    const tooMany = await uploadImages(server, catalogue, eleven);
    expect(tooMany).toEqual({ status: 400, body: { code: 400, msg: 'Upload at most 10 images at once', data: null } });
  });
});

describe('who may upload', () => {
  it('needs catalog:write for product images and settings:write for site images', async () => {
    const file = () => png(16, 16).then((bytes) => [{ name: 'x.png', bytes }]);
    expect((await uploadImages(server, fulfilment, await file())).status).toBe(403);
    expect((await uploadImages(server, settings, await file())).status).toBe(403);
    const refused = await uploadImages(server, catalogue, await file(), { path: 'site-images' });
    expect(refused).toEqual({
      status: 403,
      body: { code: 403, msg: 'Your role does not allow this. Ask an Owner for access', data: null },
    });
    const logo = await uploadImages(server, settings, await file(), { path: 'site-images' });
    expect(logo.status).toBe(200);
    expect(logo.body.data.images[0]).toMatchObject({ width: 16, height: 16, content_type: 'image/png' });
    const anonymous = await fetch(`${server.url}/v1/admin/media/images`, { method: 'POST' });
    expect(anonymous.status).toBe(403);
  });
});
