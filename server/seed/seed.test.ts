import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrateDatabase, openDatabase, type DatabaseHandle } from '../db/client';
import {
  contentPages,
  productGroupMembers,
  productGroups,
  productImages,
  productProperties,
  productPropertyValues,
  products,
  productSkus,
} from '../db/schema';
import type { AppContext } from '../context';
import { loadEnv } from '../shared/env';
import { createMemoryStore } from '../shared/kv-store';
import { blobStoreOf } from '../domains/media/blob-stores';
import { seedDemoData } from './index';

let dataDir: string;
let database: DatabaseHandle;
let ctx: AppContext;

async function tableCounts() {
  const tables = {
    productGroups,
    products,
    productGroupMembers,
    productImages,
    productProperties,
    productPropertyValues,
    productSkus,
    contentPages,
  };
  const entries = await Promise.all(
    Object.entries(tables).map(async ([name, table]) => {
      const [{ value } = { value: 0 }] = await ctx.db.select({ value: count() }).from(table);
      return [name, value] as const;
    }),
  );
  return Object.fromEntries(entries);
}

describe('demo seed', () => {
  let firstCounts: Record<string, number>;
  let firstSkus: Array<{ id: number; code: string; valueIds: number[]; priceMinor: number; stock: number }>;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'seed-test-'));
    // The drawn pictures are shared with the rest of the suite (see tests/support/global-setup.ts).
    await fs.symlink(path.join(inject('dataDir'), 'images'), path.join(dataDir, 'images'));
    database = await openDatabase({ embeddedDir: 'memory://' });
    await migrateDatabase(database);
    ctx = {
      env: {
        ...loadEnv({ ...process.env, DATA_DIR: dataDir, NODE_ENV: 'test' }),
        SESSION_SECRET: 'seed-test-session-secret-'.padEnd(40, 'x'),
        SANDBOX_WEBHOOK_SECRET: 'seed-test-webhook-secret-'.padEnd(40, 'x'),
      },
      db: database.db,
      database,
      kv: createMemoryStore(),
      log: pino({ level: 'silent' }),
    };
    await seedDemoData(ctx);
    firstCounts = await tableCounts();
    firstSkus = await ctx.db.select().from(productSkus).orderBy(productSkus.id);
  }, 600_000);

  afterAll(async () => {
    await database?.close();
    await ctx?.kv.close();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('creates at least six top-level categories and three collections', async () => {
    const groups = await ctx.db.select().from(productGroups);
    const categories = groups.filter((group) => group.kind === 'category');
    expect(categories.filter((group) => group.parentId === null).length).toBeGreaterThanOrEqual(6);
    expect(groups.filter((group) => group.kind === 'collection').map((group) => group.slug)).toEqual(
      expect.arrayContaining(['new-arrivals', 'best-sellers', 'gift-ideas']),
    );
    for (const child of categories.filter((group) => group.parentId !== null)) {
      expect(categories.some((parent) => parent.id === child.parentId)).toBe(true);
    }
  });

  it('creates at least forty products with real copy in both languages', async () => {
    const rows = await ctx.db.select().from(products);
    expect(rows.length).toBeGreaterThanOrEqual(40);
    for (const product of rows) {
      expect(product.name.en.trim()).not.toBe('');
      expect(product.name['zh-cn'].trim()).not.toBe('');
      expect(product.name.en).not.toBe(product.name['zh-cn']);
      expect(product.description.en.length).toBeGreaterThan(60);
      expect(product.description['zh-cn'].length).toBeGreaterThan(20);
      expect(product.serviceNotes.every((note) => [1, 2, 3, 4].includes(note))).toBe(true);
    }
  });

  it('puts every product in exactly one category and at most two collections', async () => {
    const rows = await ctx.db
      .select({ productId: productGroupMembers.productId, kind: productGroups.kind })
      .from(productGroupMembers)
      .innerJoin(productGroups, eq(productGroups.id, productGroupMembers.groupId));
    const ids = (await ctx.db.select({ id: products.id }).from(products)).map((row) => row.id);
    for (const id of ids) {
      const mine = rows.filter((row) => row.productId === id);
      expect(mine.filter((row) => row.kind === 'category')).toHaveLength(1);
      expect(mine.filter((row) => row.kind === 'collection').length).toBeLessThanOrEqual(2);
    }
  });

  it('gives every product 1-3 properties and one SKU per unique combination', async () => {
    const properties = await ctx.db.select().from(productProperties);
    const values = await ctx.db.select().from(productPropertyValues);
    const skus = await ctx.db.select().from(productSkus);
    const productRows = await ctx.db.select().from(products);
    let soldOut = 0;
    for (const product of productRows) {
      const mine = properties.filter((property) => property.productId === product.id);
      expect(mine.length).toBeGreaterThanOrEqual(1);
      expect(mine.length).toBeLessThanOrEqual(3);
      const valuesByProperty = mine.map(
        (property) => new Set(values.filter((value) => value.propertyId === property.id).map((value) => value.id)),
      );
      const productSkuRows = skus.filter((sku) => sku.productId === product.id);
      const expected = valuesByProperty.reduce((total, set) => total * set.size, 1);
      expect(productSkuRows).toHaveLength(expected);
      const combos = new Set<string>();
      for (const sku of productSkuRows) {
        expect(sku.valueIds).toHaveLength(mine.length);
        valuesByProperty.forEach((set, i) => expect(set.has(sku.valueIds[i]!)).toBe(true));
        combos.add([...sku.valueIds].sort((a, b) => a - b).join(','));
        expect(Number.isInteger(sku.priceMinor)).toBe(true);
        expect(sku.priceMinor).toBeGreaterThan(0);
        expect(sku.currency).toBe('CNY');
        expect(sku.code).toMatch(new RegExp(`^LL-${product.slug}-\\d+$`));
        if (sku.stock === 0) soldOut++;
      }
      expect(combos.size).toBe(productSkuRows.length);
    }
    expect(soldOut).toBeGreaterThan(0);
    for (const value of values.filter((value) => value.swatch)) expect(value.swatch).toMatch(/^#[0-9a-f]{6}$/i);
  });

  it('stores every recorded image in the blob store as a webp of the recorded size, under its hash', async () => {
    const images = await ctx.db.select().from(productImages);
    const groups = await ctx.db.select().from(productGroups);
    const skus = await ctx.db.select().from(productSkus);
    const pages = await ctx.db.select().from(contentPages);
    const posters = pages.flatMap((page) =>
      page.blocks.en.flatMap((block) => (block.type === 'video' ? [block.poster] : [])),
    );
    expect(posters.length).toBeGreaterThanOrEqual(4);
    const wanted = new Map<string, { width: number; height: number } | null>();
    for (const image of images) wanted.set(image.url, { width: image.width, height: image.height });
    for (const group of groups) if (group.image) wanted.set(group.image, { width: 1200, height: 800 });
    for (const poster of posters) wanted.set(poster, { width: 1280, height: 720 });
    for (const sku of skus) if (sku.image && !wanted.has(sku.image)) wanted.set(sku.image, null);
    const productIds = new Set(images.map((image) => image.productId));
    expect(productIds.size).toBe((await ctx.db.select({ id: products.id }).from(products)).length);
    for (const [url, size] of wanted) {
      expect(url).toMatch(/^\/images\/h\/[0-9a-f]{32}\.webp$/);
      const bytes = await blobStoreOf(ctx.env).get(url.slice(1));
      expect(createHash('sha256').update(bytes!).digest('hex').slice(0, 32)).toBe(url.slice(10, 42));
      const meta = await sharp(bytes!).metadata();
      expect(meta.format).toBe('webp');
      if (size) expect({ url, width: meta.width, height: meta.height }).toEqual({ url, ...size });
    }
  });

  it('has the four navigation pages in both languages', async () => {
    const pages = await ctx.db.select().from(contentPages);
    expect(pages.map((page) => page.slug).sort()).toEqual(['contact-us', 'faq', 'our-story', 'videos']);
    for (const page of pages) {
      expect(page.title.en).not.toBe(page.title['zh-cn']);
      expect(page.blocks.en.length).toBeGreaterThan(0);
      expect(page.blocks['zh-cn'].length).toBe(page.blocks.en.length);
    }
    const faq = pages.find((page) => page.slug === 'faq');
    expect(faq?.blocks.en.filter((block) => block.type === 'qa').length).toBeGreaterThanOrEqual(8);
  });

  it('changes nothing when run again', async () => {
    const before = await ctx.db.select({ slug: products.slug, updatedAt: products.updatedAt }).from(products);
    await seedDemoData(ctx);
    await seedDemoData(ctx, { onlyIfEmpty: true });
    expect(await tableCounts()).toEqual(firstCounts);
    expect(await ctx.db.select().from(productSkus).orderBy(productSkus.id)).toEqual(firstSkus);
    expect(await ctx.db.select({ slug: products.slug, updatedAt: products.updatedAt }).from(products)).toEqual(before);
  }, 120_000);

  it('keeps stock the shop changed and leaves other rows alone', async () => {
    const sku = firstSkus[0]!;
    await ctx.db.update(productSkus).set({ stock: 3 }).where(eq(productSkus.id, sku.id));
    const [own] = await ctx.db
      .insert(products)
      .values({
        slug: 'operator-own-product',
        name: { en: 'Own', 'zh-cn': '自有' },
        description: { en: 'x', 'zh-cn': 'x' },
      })
      .returning();
    if (!own) throw new Error('the product was not inserted');
    await ctx.db.insert(productImages).values({ productId: own.id, url: '/images/own.webp', width: 10, height: 10 });
    await seedDemoData(ctx);
    const [after] = await ctx.db.select().from(productSkus).where(eq(productSkus.id, sku.id));
    expect(after?.stock).toBe(3);
    expect(await ctx.db.select().from(productImages).where(eq(productImages.productId, own.id))).toHaveLength(1);
  }, 120_000);

  it('keeps a SKU the console retired, which orders and stock history still name', async () => {
    const sku = firstSkus[1]!;
    const retiredAt = new Date('2026-11-27T12:00:00Z');
    await ctx.db
      .update(productSkus)
      .set({ code: `${sku.code}~${sku.id}`, retiredAt, stock: 0 })
      .where(eq(productSkus.id, sku.id));
    await seedDemoData(ctx);
    const [kept] = await ctx.db.select().from(productSkus).where(eq(productSkus.id, sku.id));
    expect(kept).toMatchObject({ code: `${sku.code}~${sku.id}`, retiredAt, stock: 0 });
  }, 120_000);
});
