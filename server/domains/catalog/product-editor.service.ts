import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, exists, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { LOCALES } from '../../../i18n/locales';
import type { ActingContext, AppContext, Transaction } from '../../context';
import {
  afterSaleLines,
  afterSales,
  cartItems,
  inventoryAdjustments,
  orderItems,
  productGroupMembers,
  productGroups,
  productImages,
  productProperties,
  productPropertyValues,
  products,
  productSkus,
} from '../../db/schema';
import { onlyRow } from '../../db/rows';
import { AppError, BadRequestError, NotFoundError, uniqueViolation } from '../../shared/errors';
import { recordAudit } from '../audit/audit.service';
import { getSiteSettings } from '../site-settings/site-settings.service';
import { retireCatalogPages } from './catalog-pages';
import {
  missingLanguages,
  type BothLanguages,
  type ProductBody,
  type ProductListQuery,
  type ProductRow,
  type ProductStatus,
  type ProductView,
} from './product-editor.schemas';
import { sanitizeRichText } from './rich-text';

/**
 * The console's product editor (ADR 0160, docs/console.md "Products"). A save replaces the
 * product's texts, options, images and group memberships and upserts its SKUs, all in one
 * transaction with its audit event; the cached pages it changed are retired after commit
 * (retireCatalogPages). A SKU's stock is set only when it is created: afterwards orders and
 * inventory adjustments own it.
 */

type Tx = ActingContext & { db: Transaction };

const EMPTY = { en: '', 'zh-cn': '' };
const text = (value: Partial<BothLanguages> | null | undefined): BothLanguages => ({
  en: value?.en ?? '',
  'zh-cn': value?.['zh-cn'] ?? '',
});

const duplicateSku = (code: string) => new BadRequestError('adminProducts.duplicateSku', { code });

/** `GET /v1/admin/products`: newest first, by name or SKU code and status. */
export async function listEditorProducts(ctx: AppContext, query: ProductListQuery) {
  const conditions: SQL[] = [];
  const live = isNull(productSkus.retiredAt);
  if (query.status) conditions.push(eq(products.status, query.status));
  if (query.q) {
    const pattern = `%${query.q.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    conditions.push(
      or(
        ilike(sql`${products.name}->>'en'`, pattern),
        ilike(sql`${products.name}->>'zh-cn'`, pattern),
        exists(
          ctx.db
            .select({ one: sql`1` })
            .from(productSkus)
            .where(and(eq(productSkus.productId, products.id), live, ilike(productSkus.code, pattern))),
        ),
      )!,
    );
  }
  const [rows, settings] = await Promise.all([
    ctx.db
      .select({
        id: products.id,
        name: products.name,
        description: products.description,
        seoTitle: products.seoTitle,
        seoDescription: products.seoDescription,
        status: products.status,
        updatedAt: products.updatedAt,
        cover: sql<
          string | null
        >`(select ${productImages.url} from ${productImages} where ${productImages.productId} = ${products.id} order by ${productImages.sort}, ${productImages.id} limit 1)`,
        skuCount:
          sql<number>`(select count(*) from ${productSkus} where ${productSkus.productId} = ${products.id} and ${live})`.mapWith(
            Number,
          ),
        minPrice: sql<
          number | null
        >`(select min(${productSkus.priceMinor}) from ${productSkus} where ${productSkus.productId} = ${products.id} and ${live})`,
        stock:
          sql<number>`(select coalesce(sum(${productSkus.stock}), 0) from ${productSkus} where ${productSkus.productId} = ${products.id} and ${live})`.mapWith(
            Number,
          ),
        total: sql<number>`count(*) over ()`.mapWith(Number),
      })
      .from(products)
      .where(conditions.length ? and(...conditions) : undefined)
      .orderBy(desc(products.updatedAt), desc(products.id))
      .limit(query.page_size)
      .offset((query.page - 1) * query.page_size),
    getSiteSettings(ctx),
  ]);
  const records: ProductRow[] = rows.map((row) => ({
    id: row.id,
    name: text(row.name),
    status: row.status,
    cover: row.cover,
    sku_count: row.skuCount,
    min_price_minor: row.minPrice === null ? null : Number(row.minPrice),
    stock: row.stock,
    missing: missingOf(row).all,
    updated_at: row.updatedAt.toISOString(),
  }));
  return {
    records,
    total: rows[0]?.total ?? 0,
    page: query.page,
    page_size: query.page_size,
    currency: settings.currency,
  };
}

/** Per text field, the languages still empty; `all` is their union. */
function missingOf(row: {
  name: BothLanguages | null;
  description: BothLanguages | null;
  seoTitle: BothLanguages | null;
  seoDescription: BothLanguages | null;
}) {
  // SEO texts left empty in both languages fall back to the name and description: not missing.
  const optional = (value: BothLanguages | null) =>
    missingLanguages(value).length === LOCALES.length ? [] : missingLanguages(value);
  const fields = {
    name: missingLanguages(row.name),
    description: missingLanguages(row.description),
    seo_title: optional(row.seoTitle),
    seo_description: optional(row.seoDescription),
  };
  const all = [...new Set(Object.values(fields).flat())].sort();
  return { fields, all };
}

/** `GET /v1/admin/products/:id`: everything the editor shows; null when there is no such product. */
export async function getEditorProduct(ctx: AppContext, id: number): Promise<ProductView | null> {
  const [product] = await ctx.db.select().from(products).where(eq(products.id, id));
  if (!product) return null;
  const [properties, skus, images, groups, settings] = await Promise.all([
    ctx.db
      .select({ id: productProperties.id, name: productProperties.name })
      .from(productProperties)
      .where(eq(productProperties.productId, id))
      .orderBy(asc(productProperties.sort), asc(productProperties.id)),
    ctx.db
      .select()
      .from(productSkus)
      .where(and(eq(productSkus.productId, id), isNull(productSkus.retiredAt)))
      .orderBy(asc(productSkus.id)),
    ctx.db
      .select()
      .from(productImages)
      .where(eq(productImages.productId, id))
      .orderBy(asc(productImages.sort), asc(productImages.id)),
    ctx.db
      .select({ groupId: productGroupMembers.groupId })
      .from(productGroupMembers)
      .where(eq(productGroupMembers.productId, id))
      .orderBy(asc(productGroupMembers.groupId)),
    getSiteSettings(ctx),
  ]);
  const values = properties.length
    ? await ctx.db
        .select()
        .from(productPropertyValues)
        .where(
          inArray(
            productPropertyValues.propertyId,
            properties.map((property) => property.id),
          ),
        )
        .orderBy(asc(productPropertyValues.sort), asc(productPropertyValues.id))
    : [];
  const valuesOf = (propertyId: number) => values.filter((value) => value.propertyId === propertyId);
  // A SKU names its values by id; the editor names them by position in each option.
  const positions = new Map<number, number>();
  for (const property of properties) valuesOf(property.id).forEach((value, index) => positions.set(value.id, index));
  return {
    id: product.id,
    status: product.status,
    name: text(product.name),
    description: text(product.description),
    seo_title: text(product.seoTitle),
    seo_description: text(product.seoDescription),
    weight_grams: product.weightGrams,
    service_notes: product.serviceNotes,
    final_sale: product.finalSale,
    group_ids: groups.map((group) => group.groupId),
    options: properties.map((property) => ({
      name: text(property.name),
      values: valuesOf(property.id).map((value) => ({ value: text(value.value), swatch: value.swatch })),
    })),
    skus: skus.map((sku) => ({
      id: sku.id,
      values: sku.valueIds.map((valueId) => positions.get(valueId) ?? 0),
      code: sku.code,
      price_minor: sku.priceMinor,
      stock: sku.stock,
      hs_code: sku.hsCode,
      origin_country: sku.originCountry,
      customs_description: sku.customsDescription,
      image: sku.image,
    })),
    images: images.map((image) => ({ url: image.url, width: image.width, height: image.height, alt: text(image.alt) })),
    missing: missingOf(product).fields,
    currency: settings.currency,
    updated_at: product.updatedAt.toISOString(),
  };
}

/** The audited shape: the editor's view without what changes on its own (stock, times). */
function auditShape(view: ProductView) {
  const { missing: _missing, updated_at: _updatedAt, currency: _currency, ...rest } = view;
  return { ...rest, skus: rest.skus.map(({ stock: _stock, ...sku }) => sku) };
}

/** The product row's columns from the editor's body, rich text sanitised (the CSV import writes the same). */
export function productColumns(body: ProductBody) {
  return {
    name: body.name,
    description: {
      en: sanitizeRichText(body.description.en),
      'zh-cn': sanitizeRichText(body.description['zh-cn']),
    },
    seoTitle: body.seo_title,
    seoDescription: body.seo_description,
    weightGrams: body.weight_grams,
    serviceNotes: [...new Set(body.service_notes)].sort(),
    finalSale: body.final_sale,
  };
}

function slugOf(body: ProductBody): string {
  const base = body.name.en
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${base || 'product'}-${randomUUID().slice(0, 8)}`;
}

/** Writes everything below the product row: options, SKUs, images and groups. */
async function writeParts(t: Tx, productId: number, body: ProductBody, currency: string): Promise<void> {
  const groupIds = [...new Set(body.group_ids)];
  if (groupIds.length) {
    const known = await t.db
      .select({ id: productGroups.id, kind: productGroups.kind })
      .from(productGroups)
      .where(inArray(productGroups.id, groupIds));
    const missing = groupIds.find((id) => !known.some((group) => group.id === id));
    if (missing !== undefined) throw new BadRequestError('adminProducts.unknownGroup', { id: missing });
    // The storefront's breadcrumb and the category editor (setGroupProducts) hold one category per product.
    if (known.filter((group) => group.kind === 'category').length > 1)
      throw new BadRequestError('adminProducts.oneCategory');
  }

  // Options are replaced as a whole; SKUs are pointed at the new value ids below.
  await t.db.delete(productProperties).where(eq(productProperties.productId, productId));
  const valueIds: number[][] = [];
  for (const [sort, option] of body.options.entries()) {
    const property = onlyRow(
      await t.db
        .insert(productProperties)
        .values({ productId, name: option.name, sort })
        .returning({ id: productProperties.id }),
    );
    const values = await t.db
      .insert(productPropertyValues)
      .values(
        option.values.map((value, index) => ({
          propertyId: property.id,
          value: value.value,
          swatch: value.swatch,
          sort: index,
        })),
      )
      .returning({ id: productPropertyValues.id, sort: productPropertyValues.sort });
    valueIds.push(values.sort((a, b) => a.sort - b.sort).map((value) => value.id));
  }

  const existing = await t.db
    .select({ id: productSkus.id, code: productSkus.code, stock: productSkus.stock })
    .from(productSkus)
    .where(and(eq(productSkus.productId, productId), isNull(productSkus.retiredAt)))
    .orderBy(asc(productSkus.id));
  const keptIds = body.skus.flatMap((sku) => (sku.id === undefined ? [] : [sku.id]));
  const unknown = keptIds.find((id) => !existing.some((sku) => sku.id === id));
  if (unknown !== undefined) throw new BadRequestError('adminProducts.unknownSku', { id: unknown });
  await removeSkus(
    t,
    productId,
    existing.filter((sku) => !keptIds.includes(sku.id)),
  );
  const codes = body.skus.map((sku) => sku.code);
  const [taken] = await t.db
    .select({ code: productSkus.code })
    .from(productSkus)
    .where(
      and(
        inArray(
          sql`lower(${productSkus.code})`,
          codes.map((code) => code.toLowerCase()),
        ),
        sql`${productSkus.productId} <> ${productId}`,
      ),
    )
    .limit(1);
  if (taken) throw duplicateSku(taken.code);
  // Codes may move between this product's SKUs in one save: park the kept ones first.
  if (keptIds.length)
    await t.db
      .update(productSkus)
      .set({ code: sql`'~' || ${productSkus.id}::text` })
      .where(inArray(productSkus.id, keptIds));
  for (const sku of body.skus) {
    const columns = {
      valueIds: sku.values.map((position, axis) => valueIds[axis]![position]!),
      code: sku.code,
      priceMinor: sku.price_minor,
      currency,
      hsCode: sku.hs_code,
      originCountry: sku.origin_country,
      customsDescription: sku.customs_description,
      image: sku.image,
    };
    try {
      if (sku.id === undefined)
        await t.db.insert(productSkus).values({ ...columns, productId, stock: sku.initial_stock });
      else
        await t.db
          .update(productSkus)
          .set({ ...columns, updatedAt: new Date() })
          .where(eq(productSkus.id, sku.id));
    } catch (error) {
      if (uniqueViolation(error)) throw duplicateSku(sku.code);
      throw error;
    }
  }

  await t.db.delete(productImages).where(eq(productImages.productId, productId));
  if (body.images.length)
    await t.db.insert(productImages).values(body.images.map((image, sort) => ({ productId, ...image, sort })));

  const members = await t.db
    .select({ groupId: productGroupMembers.groupId })
    .from(productGroupMembers)
    .where(eq(productGroupMembers.productId, productId));
  const leaving = members.map((member) => member.groupId).filter((id) => !groupIds.includes(id));
  if (leaving.length)
    await t.db
      .delete(productGroupMembers)
      .where(and(eq(productGroupMembers.productId, productId), inArray(productGroupMembers.groupId, leaving)));
  const joining = groupIds.filter((id) => !members.some((member) => member.groupId === id));
  if (joining.length)
    await t.db.insert(productGroupMembers).values(joining.map((groupId) => ({ groupId, productId, sort: 0 })));
}

/** Cases still on their way to the buyer's replacement: the SKU they wait for must stay. */
const OPEN_EXCHANGE_STATES = ['requested', 'approved', 'awaiting_parcel', 'in_transit', 'received'] as const;

/**
 * Takes SKUs out of a product (ADR 0160). One an open exchange still waits for is refused,
 * naming it: the shop promised that very item. One that an order, a cart or the stock history
 * names is retired instead of deleted (kept for them, stock written off, code freed for a new
 * SKU, never sold or shown again); only a SKU nothing names is deleted.
 */
async function removeSkus(
  t: Tx,
  productId: number,
  skus: ReadonlyArray<{ id: number; code: string; stock: number }>,
): Promise<void> {
  if (skus.length === 0) return;
  const ids = skus.map((sku) => sku.id);
  // Locked before asking who names them: an order placed meanwhile waits for this save (its
  // line's reference to the SKU row needs the row) and then finds it retired, not half deleted.
  await t.db
    .select({ id: productSkus.id })
    .from(productSkus)
    .where(inArray(productSkus.id, ids))
    .orderBy(asc(productSkus.id))
    .for('update');
  const [awaited] = await t.db
    .select({ skuId: afterSaleLines.wantedSkuId })
    .from(afterSaleLines)
    .innerJoin(afterSales, eq(afterSales.id, afterSaleLines.afterSaleId))
    .where(and(inArray(afterSaleLines.wantedSkuId, ids), inArray(afterSales.state, OPEN_EXCHANGE_STATES)))
    .limit(1);
  if (awaited)
    throw new AppError('conflict', 'adminProducts.skuAwaitedByExchange', {
      code: skus.find((sku) => sku.id === awaited.skuId)?.code ?? '',
    });
  const named = await t.db
    .select({ skuId: orderItems.skuId })
    .from(orderItems)
    .where(inArray(orderItems.skuId, ids))
    .union(t.db.select({ skuId: cartItems.skuId }).from(cartItems).where(inArray(cartItems.skuId, ids)))
    .union(
      t.db
        .select({ skuId: inventoryAdjustments.skuId })
        .from(inventoryAdjustments)
        .where(inArray(inventoryAdjustments.skuId, ids)),
    )
    .union(
      t.db
        .select({ skuId: sql<number>`${afterSaleLines.wantedSkuId}` })
        .from(afterSaleLines)
        .where(inArray(afterSaleLines.wantedSkuId, ids)),
    );
  const namedIds = new Set(named.map((row) => Number(row.skuId)));
  const retired = skus.filter((sku) => namedIds.has(sku.id));
  const unnamed = ids.filter((id) => !namedIds.has(id));
  if (unnamed.length) await t.db.delete(productSkus).where(inArray(productSkus.id, unnamed));
  if (retired.length === 0) return;
  await t.db
    .update(productSkus)
    .set({
      retiredAt: sql`now()`,
      stock: 0,
      lowStockThreshold: null,
      // The SKU code format has no '~': a live SKU can take the old code at once.
      code: sql`${productSkus.code} || '~' || ${productSkus.id}::text`,
      updatedAt: sql`now()`,
    })
    .where(
      inArray(
        productSkus.id,
        retired.map((sku) => sku.id),
      ),
    );
  await recordAudit(t, {
    action: 'product.skus_retired',
    entityType: 'product',
    entityId: productId,
    before: { skus: retired.map(({ id, code, stock }) => ({ id, code, stock })) },
    after: { skus: retired.map(({ id }) => ({ id, stock: 0, retired: true })) },
  });
}

async function groupsOf(ctx: AppContext, productId: number): Promise<number[]> {
  const rows = await ctx.db
    .select({ groupId: productGroupMembers.groupId })
    .from(productGroupMembers)
    .where(eq(productGroupMembers.productId, productId));
  return rows.map((row) => row.groupId);
}

/** A failure on the way leaves nothing written: the error leaves the transaction. */
async function viewInside(t: Tx, productId: number): Promise<ProductView> {
  const view = await getEditorProduct(t, productId);
  if (!view) throw new NotFoundError('adminProducts.notFound');
  return view;
}

/** `POST /v1/admin/products`: a new product starts as a draft, off the shop until published. */
export async function createEditorProduct(ctx: ActingContext, body: ProductBody): Promise<ProductView> {
  const { currency } = await getSiteSettings(ctx);
  const view = await ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    const product = onlyRow(
      await tx
        .insert(products)
        .values({ ...productColumns(body), slug: slugOf(body), status: 'draft', listed: false })
        .returning({ id: products.id }),
    );
    await writeParts(t, product.id, body, currency);
    const created = await viewInside(t, product.id);
    await recordAudit(t, {
      action: 'product.created',
      entityType: 'product',
      entityId: product.id,
      after: auditShape(created),
    });
    return created;
  });
  // A draft is on no page; its groups' listings do not show it either.
  return view;
}

/** `PUT /v1/admin/products/:id`: replaces the product as the editor shows it. */
export async function updateEditorProduct(ctx: ActingContext, productId: number, body: ProductBody) {
  const { currency } = await getSiteSettings(ctx);
  const { view, groupIds } = await ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    const [locked] = await tx
      .select({ id: products.id })
      .from(products)
      .where(eq(products.id, productId))
      .for('update');
    if (!locked) throw new NotFoundError('adminProducts.notFound');
    const before = await viewInside(t, productId);
    await tx
      .update(products)
      .set({ ...productColumns(body), updatedAt: new Date() })
      .where(eq(products.id, productId));
    await writeParts(t, productId, body, currency);
    const after = await viewInside(t, productId);
    await recordAudit(t, {
      action: 'product.updated',
      entityType: 'product',
      entityId: productId,
      before: auditShape(before),
      after: auditShape(after),
    });
    return { view: after, groupIds: [...new Set([...before.group_ids, ...after.group_ids])] };
  });
  await retireCatalogPages(ctx, { productIds: [productId], groupIds });
  return view;
}

const STATUS_ACTIONS: Record<ProductStatus, string> = {
  published: 'product.published',
  draft: 'product.unpublished',
  archived: 'product.archived',
};

/**
 * Publish, unpublish (back to draft) or archive. Publishing needs a name in both languages
 * and a SKU; archived products leave the shop and cannot be ordered, while orders that hold
 * them keep their lines.
 */
export async function setEditorProductStatus(ctx: ActingContext, productId: number, status: ProductStatus) {
  const view = await ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    const [product] = await tx.select().from(products).where(eq(products.id, productId)).for('update');
    if (!product) throw new NotFoundError('adminProducts.notFound');
    if (status === 'published') {
      if (missingLanguages(product.name).length) throw new AppError('conflict', 'adminProducts.publishNeedsNames');
      const [sku] = await tx
        .select({ id: productSkus.id })
        .from(productSkus)
        .where(and(eq(productSkus.productId, productId), isNull(productSkus.retiredAt)))
        .limit(1);
      if (!sku) throw new AppError('conflict', 'adminProducts.noSku');
    }
    if (product.status !== status) {
      await tx
        .update(products)
        .set({ status, listed: status === 'published', updatedAt: new Date() })
        .where(eq(products.id, productId));
      await recordAudit(t, {
        action: STATUS_ACTIONS[status],
        entityType: 'product',
        entityId: productId,
        before: { status: product.status },
        after: { status },
      });
    }
    return viewInside(t, productId);
  });
  await retireCatalogPages(ctx, { productIds: [productId], groupIds: await groupsOf(ctx, productId) });
  return view;
}

/** Every group a product may join, categories first, for the editor's picker. */
export async function productGroupChoiceList(ctx: AppContext) {
  const rows = await ctx.db
    .select({ id: productGroups.id, kind: productGroups.kind, name: productGroups.name })
    .from(productGroups)
    .orderBy(asc(productGroups.kind), asc(productGroups.sort), asc(productGroups.id));
  return rows.map((row) => ({ id: row.id, kind: row.kind, name: text(row.name ?? EMPTY) }));
}
