import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobStoreOf } from '../../server/domains/media/blob-stores';
import { variantKey } from '../../server/domains/media/image-variants';
import { publishDemoImages } from '../../server/seed/demo-images';
import { png, uploadImages } from '../support/console-images';
import { startLocalS3, type LocalS3 } from '../support/local-s3';
import { createSignedInStaff } from '../support/staff';
import { useTestServer } from '../support/test-server';

/** Two copies of the shop, as on two hosts without a shared volume: one S3 bucket they share. */
let s3: LocalS3;
beforeAll(async () => {
  s3 = await startLocalS3();
});
afterAll(() => s3?.close());

const copyA = useTestServer(() => s3.env);
const copyB = useTestServer(() => s3.env);

describe('two copies of the shop on one S3 bucket', () => {
  it('serve each other’s uploads and resized variants, made once and kept in the bucket', async () => {
    const staff = await createSignedInStaff(copyA, { role: 'catalogue' });
    const uploaded = await uploadImages(copyA, staff, [{ name: 'shared.png', bytes: await png(800, 400) }]);
    expect(uploaded.status).toBe(200);
    const { url, bytes } = uploaded.body.data.images[0];

    const original = await fetch(copyB.url + url);
    expect(original.status).toBe(200);
    expect(original.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await original.arrayBuffer()).length).toBe(bytes);

    const bucket = s3.store();
    const head = await bucket.head(url.slice(1));
    expect(head).toMatchObject({ size: bytes, contentType: 'image/png' });
    const key = variantKey(url.slice(1), head!.etag, 480, 75);
    expect(await bucket.head(key)).toBeNull();

    const madeByB = await fetch(`${copyB.url}${url}?w=480`);
    expect(madeByB.status).toBe(200);
    const variantBytes = Buffer.from(await madeByB.arrayBuffer());
    expect(await sharp(variantBytes).metadata()).toMatchObject({ format: 'webp', width: 480, height: 240 });
    // B put the variant in the bucket; A serves that very object.
    expect(await bucket.head(key)).toMatchObject({ size: variantBytes.length, contentType: 'image/webp' });
    const servedByA = await fetch(`${copyA.url}${url}?w=480`);
    expect(servedByA.headers.get('etag')).toBe(madeByB.headers.get('etag'));
    expect(Buffer.from(await servedByA.arrayBuffer()).equals(variantBytes)).toBe(true);
  });

  it('serve the seed’s pictures from the bucket, which the seed puts there once', async () => {
    const store = blobStoreOf(copyB.ctx.env);
    const first = await publishDemoImages(copyB.ctx.env.dataDir, store);
    expect(first.copied).toBeGreaterThan(100);
    const again = await publishDemoImages(copyB.ctx.env.dataDir, store);
    expect(again).toMatchObject({ copied: 0, skipped: first.copied });
    expect(again.urls).toEqual(first.urls);
    const list = await copyA.request('/v1/good/list?page_size=1');
    const imageUrl: string = list.body.data.records[0].image.url;
    expect(imageUrl).toMatch(/^\/images\/h\/[0-9a-f]{32}\.webp$/);
    expect([...first.urls.values()]).toContain(imageUrl);
    const response = await fetch(`${copyA.url}${imageUrl}?w=160`);
    expect(response.status).toBe(200);
    expect((await sharp(Buffer.from(await response.arrayBuffer())).metadata()).width).toBe(160);
  });
});
