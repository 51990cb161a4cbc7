import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentPages, productGroups, productImages, productPropertyValues, productSkus } from '../../server/db/schema';
import { blobStoreOf } from '../../server/domains/media/blob-stores';
import { seedDemoData } from '../../server/seed';
import { readDemoImageManifest } from '../../server/seed/demo-image-manifest';
import { startLocalS3, type LocalS3 } from '../support/local-s3';
import { useTestApp, type TestApp } from '../support/test-server';

/** Issue 15: the seed's pictures are blobs under content-hashed addresses, like the console's uploads. */
const HASHED = /^\/images\/h\/[0-9a-f]{32}\.webp$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';

async function firstProduct(shop: TestApp) {
  const list = await shop.request('/v1/good/list?page_size=1');
  return (await shop.request(`/v1/good/${list.body.data.records[0].id}`)).body.data;
}

/** Every picture address the seeded catalogue rows hold, sorted. */
async function seededAddresses(shop: TestApp): Promise<string[]> {
  const db = shop.ctx.db;
  const rows = [
    ...(await db.select({ url: productImages.url }).from(productImages)).map((row) => row.url),
    ...(await db.select({ url: productSkus.image }).from(productSkus)).map((row) => row.url),
    ...(await db.select({ url: productPropertyValues.image }).from(productPropertyValues)).map((row) => row.url),
    ...(await db.select({ url: productGroups.image }).from(productGroups)).map((row) => row.url),
  ];
  const pages = await db.select({ blocks: contentPages.blocks }).from(contentPages);
  const posters = pages.flatMap((page) =>
    [...page.blocks.en, ...page.blocks['zh-cn']].flatMap((block) => (block.type === 'video' ? [block.poster] : [])),
  );
  return [...rows, ...posters].filter((url): url is string => url !== null).sort();
}

describe('seeded pictures', () => {
  const shop = useTestApp();

  it('are addressed by the hash of their bytes: products, SKUs, colours, groups and video posters', async () => {
    const product = await firstProduct(shop);
    expect(product.images.length).toBeGreaterThanOrEqual(3);
    for (const image of product.images) expect(image.url).toMatch(HASHED);
    for (const sku of product.good_sku) expect(sku.image).toMatch(HASHED);
    const addresses = await seededAddresses(shop);
    expect(addresses.length).toBeGreaterThan(100);
    expect(addresses.filter((url) => !HASHED.test(url))).toEqual([]);
    const groups = (await shop.request('/v1/goodGroup/list/2')).body.data;
    expect(groups[0].image).toMatch(HASHED);
  });

  it('are served immutable for a year, with the bytes their name hashes, and resized', async () => {
    const { url } = (await firstProduct(shop)).images[0];
    const original = await shop.app.inject({ url });
    expect(original.statusCode).toBe(200);
    expect(original.headers['content-type']).toBe('image/webp');
    expect(original.headers['cache-control']).toBe(IMMUTABLE);
    const hash = createHash('sha256').update(original.rawPayload).digest('hex').slice(0, 32);
    expect(url).toBe(`/images/h/${hash}.webp`);
    expect(await sharp(original.rawPayload).metadata()).toMatchObject({ width: 800, height: 800 });

    const resized = await shop.app.inject({ url: `${url}?w=300` });
    expect(resized.statusCode).toBe(200);
    expect(resized.headers['cache-control']).toBe(IMMUTABLE);
    expect(await sharp(resized.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 320, height: 320 });
    const light = await shop.app.inject({ url: `${url}?format=webp&q=50` });
    expect(light.statusCode).toBe(200);
    expect(light.rawPayload.length).toBeLessThan(original.rawPayload.length);
  });

  it('keep their old /images/demo/ addresses as permanent redirects, query and all', async () => {
    const manifest = await readDemoImageManifest(blobStoreOf(shop.ctx.env));
    const target = manifest!.images['group-ceramics'];
    expect(target).toMatch(HASHED);
    const moved = await shop.app.inject({ url: '/images/demo/group-ceramics.webp?w=480' });
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe(`${target}?w=480`);
    const followed = await shop.app.inject({ url: moved.headers.location as string });
    expect(followed.statusCode).toBe(200);
    expect((await sharp(followed.rawPayload).metadata()).width).toBe(480);
    for (const path of [
      '/images/demo/never-drawn.webp',
      '/images/demo/manifest.json',
      '/images/demo/',
      '/images/demo/x/y.webp',
    ])
      expect((await shop.app.inject({ url: path })).statusCode, path).toBe(404);
  });

  it('keep their addresses when the seed runs again on the same data dir, and nothing is republished', async () => {
    const before = await seededAddresses(shop);
    const store = blobStoreOf(shop.ctx.env);
    const manifest = await store.head('images/demo/manifest.json');
    await seedDemoData(shop.ctx);
    await seedDemoData(shop.ctx, { onlyIfEmpty: true });
    expect(await seededAddresses(shop)).toEqual(before);
    expect(await store.head('images/demo/manifest.json')).toEqual(manifest);
  }, 120_000);

  it('repoint a shop seeded before the move (rows naming /images/demo/) on its next start', async () => {
    const manifest = await readDemoImageManifest(blobStoreOf(shop.ctx.env));
    const lifestyle = manifest!.images['stoneware-mug-lifestyle']!;
    const [row] = await shop.ctx.db.select().from(productImages).where(eq(productImages.url, lifestyle));
    await shop.ctx.db
      .update(productImages)
      .set({ url: '/images/demo/stoneware-mug-lifestyle.webp' })
      .where(eq(productImages.id, row!.id));
    await seedDemoData(shop.ctx, { onlyIfEmpty: true });
    const [after] = await shop.ctx.db.select().from(productImages).where(eq(productImages.id, row!.id));
    expect(after!.url).toBe(lifestyle);
  }, 120_000);

  it('come from the S3 bucket when the shop runs on one (TEST_S3=1)', async (context) => {
    if (!shop.ctx.env.S3_BUCKET) context.skip();
    const { url } = (await firstProduct(shop)).images[0];
    const stored = await blobStoreOf(shop.ctx.env).get(url.slice(1));
    expect(blobStoreOf(shop.ctx.env).kind).toBe('s3');
    const served = await shop.app.inject({ url });
    expect(Buffer.compare(served.rawPayload, stored!)).toBe(0);
  });
});

describe('seeded pictures on a new, empty S3 bucket', () => {
  let s3: LocalS3;
  beforeAll(async () => {
    s3 = await startLocalS3();
  });
  afterAll(() => s3?.close());
  const shop = useTestApp(() => s3.env);

  it('are put there by the next start, under the addresses the rows hold, and served from it', async () => {
    const { url } = (await firstProduct(shop)).images[0];
    const bucket = s3.store();
    expect(await bucket.head(url.slice(1))).toBeNull();
    await seedDemoData(shop.ctx, { onlyIfEmpty: true });
    expect(await bucket.head(url.slice(1))).toMatchObject({ contentType: 'image/webp' });
    const served = await shop.app.inject({ url: `${url}?w=160` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['cache-control']).toBe(IMMUTABLE);
    expect((await sharp(served.rawPayload).metadata()).width).toBe(160);
    expect((await readDemoImageManifest(bucket))?.images).toMatchObject({
      'group-ceramics': expect.stringMatching(HASHED),
    });
  }, 120_000);
});
