import { and, asc, eq, getTableColumns, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import { getTableConfig, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { LocalizedText } from '../../i18n/locales';
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
import type { AppContext, Transaction } from '../context';
import { combinations, DEMO_GROUPS, DEMO_PRODUCTS, imageAxis, skuCode, skuStock, type SeedGroup } from './catalog-data';
import { DEMO_CONTENT_PAGES } from './content-pages';
import { demoCustoms } from './customs-data';
import { withMovedImages, type ImageMoves } from './demo-image-rows';
import { planGroupImage, planProductImages } from './demo-images';

type Tx = Transaction;

/** Serialises seeding when several copies of the shop start against one PostgreSQL. */
const SEED_LOCK_ID = 7_031_996_002;
const CURRENCY = 'CNY';

export interface CatalogSeedStats {
  groups: number;
  products: number;
  skus: number;
  images: number;
}

/**
 * ON CONFLICT DO UPDATE that copies the given columns from the proposed row, but only
 * when one of them differs, so a second run rewrites nothing and leaves updated_at alone.
 */
function refresh<T extends PgTable>(table: T, keys: Array<keyof T['$inferInsert'] & string>) {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const tableName = getTableConfig(table).name;
  const names = keys.map((key) => columns[key]!.name);
  const set: Record<string, unknown> = Object.fromEntries(
    keys.map((key, i) => [key, sql.raw(`excluded."${names[i]}"`)]),
  );
  if ('updatedAt' in columns) set.updatedAt = sql`now()`;
  const mine = names.map((name) => `"${tableName}"."${name}"`).join(', ');
  const theirs = names.map((name) => `excluded."${name}"`).join(', ');
  return { set: set as never, setWhere: sql.raw(`(${mine}) is distinct from (${theirs})`) };
}

const sameText = (a: LocalizedText | null | undefined, b: LocalizedText | null | undefined) =>
  a?.en === b?.en && a?.['zh-cn'] === b?.['zh-cn'];

/**
 * Lines up existing child rows (ordered by sort) with the wanted ones by position: rows
 * that match stay as they are, changed ones are updated in place (ids stay stable for
 * orders and carts that point at them), missing ones are inserted, extra ones deleted.
 */
function diffByPosition<Row extends { id: number }, Want>(
  existing: Row[],
  wanted: Want[],
  same: (row: Row, want: Want) => boolean,
) {
  const keep: Array<{ row: Row; want: Want; index: number }> = [];
  const update: Array<{ row: Row; want: Want; index: number }> = [];
  const insert: Array<{ want: Want; index: number }> = [];
  wanted.forEach((want, index) => {
    const row = existing[index];
    if (!row) insert.push({ want, index });
    else if (same(row, want)) keep.push({ row, want, index });
    else update.push({ row, want, index });
  });
  return { keep, update, insert, remove: existing.slice(wanted.length).map((row) => row.id) };
}

function groupBy<T, K>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const map = new Map<K, T[]>();
  for (const item of items) {
    const list = map.get(key(item));
    if (list) list.push(item);
    else map.set(key(item), [item]);
  }
  return map;
}

async function upsertGroups(tx: Tx, moves: ImageMoves): Promise<Map<string, number>> {
  const row = (group: SeedGroup, index: number, parentId: number | null) => ({
    slug: group.slug,
    kind: group.kind,
    parentId,
    name: group.name,
    description: group.description,
    image: withMovedImages(planGroupImage(group).url, moves),
    sort: (index + 1) * 10,
  });
  const keys = ['kind', 'parentId', 'name', 'description', 'image', 'sort'] as const;
  const topLevel = DEMO_GROUPS.map((group, index) => ({ group, index })).filter(({ group }) => !group.parent);
  await tx
    .insert(productGroups)
    .values(topLevel.map(({ group, index }) => row(group, index, null)))
    .onConflictDoUpdate({ target: productGroups.slug, ...refresh(productGroups, [...keys]) });
  const slugs = DEMO_GROUPS.map((group) => group.slug);
  const readIds = async () =>
    new Map(
      (
        await tx
          .select({ id: productGroups.id, slug: productGroups.slug })
          .from(productGroups)
          .where(inArray(productGroups.slug, slugs))
      ).map((found) => [found.slug, found.id]),
    );
  const parents = await readIds();
  const children = DEMO_GROUPS.map((group, index) => ({ group, index })).filter(({ group }) => group.parent);
  if (children.length > 0) {
    await tx
      .insert(productGroups)
      .values(children.map(({ group, index }) => row(group, index, parents.get(group.parent as string) ?? null)))
      .onConflictDoUpdate({ target: productGroups.slug, ...refresh(productGroups, [...keys]) });
  }
  return readIds();
}

async function upsertProducts(tx: Tx): Promise<Map<string, number>> {
  await tx
    .insert(products)
    .values(
      DEMO_PRODUCTS.map((product) => ({
        slug: product.slug,
        name: product.name,
        description: product.description,
        serviceNotes: product.serviceNotes,
        soldCount: product.soldCount,
        weightGrams: product.weightGrams,
      })),
    )
    // Sold counts and the listed flag belong to the running shop once it has started.
    .onConflictDoUpdate({
      target: products.slug,
      ...refresh(products, ['name', 'description', 'serviceNotes', 'weightGrams']),
    });
  const rows = await tx
    .select({ id: products.id, slug: products.slug })
    .from(products)
    .where(
      inArray(
        products.slug,
        DEMO_PRODUCTS.map((product) => product.slug),
      ),
    );
  return new Map(rows.map((found) => [found.slug, found.id]));
}

async function syncMemberships(tx: Tx, groupIds: Map<string, number>, productIds: Map<string, number>): Promise<void> {
  const wanted = DEMO_PRODUCTS.flatMap((product, index) =>
    [product.category, ...(product.collections ?? [])].map((slug) => {
      const groupId = groupIds.get(slug);
      if (!groupId) throw new Error(`Demo product ${product.slug} names unknown group ${slug}`);
      return { groupId, productId: productIds.get(product.slug) as number, sort: (index + 1) * 10 };
    }),
  );
  await tx
    .insert(productGroupMembers)
    .values(wanted)
    .onConflictDoUpdate({
      target: [productGroupMembers.groupId, productGroupMembers.productId],
      ...refresh(productGroupMembers, ['sort']),
    });
  // Only memberships between demo products and demo groups are ours to remove.
  const existing = await tx
    .select({ groupId: productGroupMembers.groupId, productId: productGroupMembers.productId })
    .from(productGroupMembers)
    .where(
      and(
        inArray(productGroupMembers.productId, [...productIds.values()]),
        inArray(productGroupMembers.groupId, [...groupIds.values()]),
      ),
    );
  const wantedKeys = new Set(wanted.map((row) => `${row.groupId}:${row.productId}`));
  for (const row of existing.filter((found) => !wantedKeys.has(`${found.groupId}:${found.productId}`))) {
    await tx
      .delete(productGroupMembers)
      .where(and(eq(productGroupMembers.groupId, row.groupId), eq(productGroupMembers.productId, row.productId)));
  }
}

/** Properties and their values, matched by position; returns value ids as productSlug -> [property][value]. */
async function syncProperties(
  tx: Tx,
  productIds: Map<string, number>,
  moves: ImageMoves,
): Promise<Map<string, number[][]>> {
  const ids = [...productIds.values()];
  const existing = groupBy(
    await tx
      .select()
      .from(productProperties)
      .where(inArray(productProperties.productId, ids))
      .orderBy(asc(productProperties.sort), asc(productProperties.id)),
    (row) => row.productId,
  );
  const propertyIds = new Map<string, number>();
  const inserts: Array<typeof productProperties.$inferInsert> = [];
  const removals: number[] = [];
  for (const product of DEMO_PRODUCTS) {
    const productId = productIds.get(product.slug) as number;
    const diff = diffByPosition(existing.get(productId) ?? [], product.properties, (row, want) =>
      sameText(row.name, want.name),
    );
    for (const { row, index } of diff.keep) propertyIds.set(`${productId}:${index}`, row.id);
    for (const { row, want, index } of diff.update) {
      await tx.update(productProperties).set({ name: want.name, sort: index }).where(eq(productProperties.id, row.id));
      propertyIds.set(`${productId}:${index}`, row.id);
    }
    for (const { want, index } of diff.insert) inserts.push({ productId, name: want.name, sort: index });
    removals.push(...diff.remove);
  }
  if (removals.length > 0) await tx.delete(productProperties).where(inArray(productProperties.id, removals));
  if (inserts.length > 0) {
    const created = await tx
      .insert(productProperties)
      .values(inserts)
      .returning({ id: productProperties.id, productId: productProperties.productId, sort: productProperties.sort });
    for (const row of created) propertyIds.set(`${row.productId}:${row.sort}`, row.id);
  }

  const existingValues = groupBy(
    await tx
      .select()
      .from(productPropertyValues)
      .where(inArray(productPropertyValues.propertyId, [...propertyIds.values()]))
      .orderBy(asc(productPropertyValues.sort), asc(productPropertyValues.id)),
    (row) => row.propertyId,
  );
  const valueIds = new Map<string, number>();
  const valueInserts: Array<typeof productPropertyValues.$inferInsert> = [];
  const valueUpdates: Array<{ id: number; set: Partial<typeof productPropertyValues.$inferInsert> }> = [];
  const valueRemovals: number[] = [];
  for (const product of DEMO_PRODUCTS) {
    const productId = productIds.get(product.slug) as number;
    const plan = planProductImages(product, moves);
    const axisIndex = imageAxis(product);
    product.properties.forEach((property, p) => {
      const propertyId = propertyIds.get(`${productId}:${p}`) as number;
      const wanted = property.values.map((value) => ({
        value: value.name,
        swatch: value.swatch ?? null,
        image: p === axisIndex ? (plan.byValue.get(value.key) ?? null) : null,
      }));
      const diff = diffByPosition(
        existingValues.get(propertyId) ?? [],
        wanted,
        (row, want) => sameText(row.value, want.value) && row.swatch === want.swatch && row.image === want.image,
      );
      for (const { row, index } of diff.keep) valueIds.set(`${propertyId}:${index}`, row.id);
      for (const { row, want, index } of diff.update) {
        valueIds.set(`${propertyId}:${index}`, row.id);
        valueUpdates.push({ id: row.id, set: { ...want, sort: index } });
      }
      for (const { want, index } of diff.insert) valueInserts.push({ propertyId, ...want, sort: index });
      valueRemovals.push(...diff.remove);
    });
  }
  for (const { id, set } of valueUpdates)
    await tx.update(productPropertyValues).set(set).where(eq(productPropertyValues.id, id));
  if (valueRemovals.length > 0)
    await tx.delete(productPropertyValues).where(inArray(productPropertyValues.id, valueRemovals));
  if (valueInserts.length > 0) {
    const created = await tx.insert(productPropertyValues).values(valueInserts).returning({
      id: productPropertyValues.id,
      propertyId: productPropertyValues.propertyId,
      sort: productPropertyValues.sort,
    });
    for (const row of created) valueIds.set(`${row.propertyId}:${row.sort}`, row.id);
  }

  const result = new Map<string, number[][]>();
  for (const product of DEMO_PRODUCTS) {
    const productId = productIds.get(product.slug) as number;
    result.set(
      product.slug,
      product.properties.map((property, p) => {
        const propertyId = propertyIds.get(`${productId}:${p}`) as number;
        return property.values.map((_, v) => valueIds.get(`${propertyId}:${v}`) as number);
      }),
    );
  }
  return result;
}
async function syncSkus(
  tx: Tx,
  productIds: Map<string, number>,
  valueIds: Map<string, number[][]>,
  moves: ImageMoves,
): Promise<number> {
  const rows = DEMO_PRODUCTS.flatMap((product) => {
    const productId = productIds.get(product.slug) as number;
    const ids = valueIds.get(product.slug) as number[][];
    const plan = planProductImages(product, moves);
    const axisIndex = imageAxis(product);
    return combinations(product).map((combo, n) => {
      const code = skuCode(product, n);
      const valueIdList = combo.map((value, p) => ids[p]![product.properties[p]!.values.indexOf(value)]!);
      return {
        productId,
        code,
        valueIds: valueIdList,
        priceMinor: product.priceMinor + combo.reduce((sum, value) => sum + (value.priceDelta ?? 0), 0),
        currency: CURRENCY,
        stock: skuStock(product, combo, code),
        image: axisIndex >= 0 ? (plan.byValue.get(combo[axisIndex]!.key) ?? null) : plan.images[0]!.url,
        ...demoCustoms(product),
      };
    });
  });
  // Stock belongs to the running shop: it is set when a SKU is created and never reset.
  await tx
    .insert(productSkus)
    .values(rows)
    .onConflictDoUpdate({
      target: productSkus.code,
      ...refresh(productSkus, [
        'productId',
        'valueIds',
        'priceMinor',
        'currency',
        'image',
        'hsCode',
        'originCountry',
        'customsDescription',
      ]),
    });
  // A SKU the console retired stays: orders, carts and stock history still name it (ADR 0160).
  await tx.delete(productSkus).where(
    and(
      inArray(productSkus.productId, [...productIds.values()]),
      isNull(productSkus.retiredAt),
      notInArray(
        productSkus.code,
        rows.map((row) => row.code),
      ),
    ),
  );
  return rows.length;
}

async function syncImages(tx: Tx, productIds: Map<string, number>, moves: ImageMoves): Promise<number> {
  const existing = groupBy(
    await tx
      .select()
      .from(productImages)
      .where(inArray(productImages.productId, [...productIds.values()]))
      .orderBy(asc(productImages.sort), asc(productImages.id)),
    (row) => row.productId,
  );
  const inserts: Array<typeof productImages.$inferInsert> = [];
  const removals: number[] = [];
  let total = 0;
  for (const product of DEMO_PRODUCTS) {
    const productId = productIds.get(product.slug) as number;
    const wanted = planProductImages(product, moves).images;
    total += wanted.length;
    const diff = diffByPosition(
      existing.get(productId) ?? [],
      wanted,
      (row, want) =>
        row.url === want.url && row.width === want.width && row.height === want.height && sameText(row.alt, want.alt),
    );
    for (const { row, want, index } of diff.update) {
      await tx
        .update(productImages)
        .set({ ...want, sort: index })
        .where(eq(productImages.id, row.id));
    }
    for (const { want, index } of diff.insert) inserts.push({ productId, ...want, sort: index });
    removals.push(...diff.remove);
  }
  if (removals.length > 0) await tx.delete(productImages).where(inArray(productImages.id, removals));
  if (inserts.length > 0) await tx.insert(productImages).values(inserts);
  return total;
}

/**
 * Writes the demo catalogue in one transaction. Rows are matched by slug (groups,
 * products), code (SKUs) or position (properties, values, images), so running it again
 * changes nothing, and rows that are not part of the demo are never touched. `moves` gives
 * each drawing's published address (its `/images/demo/<name>.webp` name to `/images/h/...`).
 */
export async function seedCatalog(ctx: AppContext, moves: ImageMoves = new Map()): Promise<CatalogSeedStats> {
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_ID})`);
    const groupIds = await upsertGroups(tx, moves);
    const productIds = await upsertProducts(tx);
    await syncMemberships(tx, groupIds, productIds);
    const valueIds = await syncProperties(tx, productIds, moves);
    const skus = await syncSkus(tx, productIds, valueIds, moves);
    const images = await syncImages(tx, productIds, moves);
    await tx
      .insert(contentPages)
      .values(
        DEMO_CONTENT_PAGES.map((page) => ({
          slug: page.slug,
          title: page.title,
          summary: page.summary,
          blocks: withMovedImages(page.blocks, moves),
        })),
      )
      .onConflictDoUpdate({ target: contentPages.slug, ...refresh(contentPages, ['title', 'summary', 'blocks']) });
    return { groups: groupIds.size, products: productIds.size, skus, images };
  });
}
