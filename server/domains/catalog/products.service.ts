import { and, asc, desc, eq, exists, gte, inArray, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm';
import { pickText, type Locale } from '../../../i18n/locales';
import {
  productGroupMembers,
  productGroups,
  productImages,
  productProperties,
  productPropertyValues,
  products,
  productSkus,
} from '../../db/schema';
import type { AppContext } from '../../context';
import { formatAmount, isCurrency, type Currency } from '../../shared/money';
import type {
  HomeSection,
  ListedProduct,
  ProductCard,
  ProductDetail,
  ProductListQuery,
  ProductPage,
} from './catalog.schemas';
import { collectionGroups, groupAndDescendantIds, visibleGroups } from './groups.service';
import { onlyRow } from '../../db/rows';

function currencyOf(code: string): Currency {
  return isCurrency(code) ? code : 'CNY';
}

/** Escapes LIKE wildcards so a keyword is matched literally. */
function likeLiteral(token: string): string {
  return `%${token.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

function keywordConditions(keyword: string | undefined): SQL[] {
  if (!keyword) return [];
  const tokens = keyword.toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8);
  return tokens.map((token) => sql`${products.searchText} like ${likeLiteral(token)} escape '\\'`);
}

/** Cards for a list of products, in the given order: first image, lowest price, colour swatches. */
async function cardsFor(
  ctx: AppContext,
  rows: Array<{
    id: number;
    name: { en: string; 'zh-cn': string };
    soldCount: number;
    minPrice: number;
    currency: string;
    stock: number;
  }>,
  locale: Locale,
): Promise<ProductCard[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [images, swatches] = await Promise.all([
    ctx.db
      .selectDistinctOn([productImages.productId])
      .from(productImages)
      .where(inArray(productImages.productId, ids))
      .orderBy(productImages.productId, asc(productImages.sort), asc(productImages.id)),
    ctx.db
      .select({
        productId: productProperties.productId,
        valueId: productPropertyValues.id,
        value: productPropertyValues.value,
        swatch: productPropertyValues.swatch,
        image: productPropertyValues.image,
      })
      .from(productPropertyValues)
      .innerJoin(productProperties, eq(productProperties.id, productPropertyValues.propertyId))
      .where(and(inArray(productProperties.productId, ids), isNotNull(productPropertyValues.swatch)))
      .orderBy(asc(productProperties.sort), asc(productPropertyValues.sort), asc(productPropertyValues.id)),
  ]);
  return rows.map((row) => {
    const image = images.find((candidate) => candidate.productId === row.id);
    const currency = currencyOf(row.currency);
    return {
      id: row.id,
      name: pickText(row.name, locale),
      image: image
        ? {
            url: image.url,
            width: image.width,
            height: image.height,
            alt: pickText(image.alt, locale) || pickText(row.name, locale),
          }
        : null,
      price: formatAmount({ amountMinor: row.minPrice, currency }),
      price_minor: row.minPrice,
      currency,
      sold: row.soldCount,
      in_stock: row.stock > 0,
      swatches: swatches
        .filter((swatch) => swatch.productId === row.id)
        .map((swatch) => ({
          value_id: swatch.valueId,
          name: pickText(swatch.value, locale),
          color: swatch.swatch!,
          image: swatch.image,
        })),
    };
  });
}

function skuStats(ctx: AppContext) {
  // A retired SKU (ADR 0160) is kept for orders only: no price, no stock on any card.
  return ctx.db
    .select({
      productId: productSkus.productId,
      minPrice: sql<number>`min(${productSkus.priceMinor})`.mapWith(Number).as('min_price'),
      currency: sql<string>`min(${productSkus.currency})`.as('currency'),
      stock: sql<number>`sum(${productSkus.stock})`.mapWith(Number).as('stock'),
    })
    .from(productSkus)
    .where(isNull(productSkus.retiredAt))
    .groupBy(productSkus.productId)
    .as('sku_stats');
}

/** The columns cardsFor needs: the product's own, and its lowest price, currency and stock from skuStats. */
function cardColumns(stats: ReturnType<typeof skuStats>) {
  return {
    id: products.id,
    name: products.name,
    soldCount: products.soldCount,
    minPrice: stats.minPrice,
    currency: stats.currency,
    stock: stats.stock,
  };
}

/** `GET /v1/good/list`: listed products, filtered, sorted and paged. */
export async function listProducts(ctx: AppContext, query: ProductListQuery, locale: Locale): Promise<ProductPage> {
  const stats = skuStats(ctx);
  const conditions: SQL[] = [eq(products.listed, true), ...keywordConditions(query.keyword)];
  if (query.group_id !== undefined) {
    const groupIds = groupAndDescendantIds(await visibleGroups(ctx), query.group_id);
    conditions.push(
      exists(
        ctx.db
          .select({ one: sql`1` })
          .from(productGroupMembers)
          .where(and(eq(productGroupMembers.productId, products.id), inArray(productGroupMembers.groupId, groupIds))),
      ),
    );
  }
  if (query.price_min !== undefined) conditions.push(gte(stats.minPrice, query.price_min));
  if (query.price_max !== undefined) conditions.push(lte(stats.minPrice, query.price_max));
  const order = {
    newest: [desc(products.createdAt), desc(products.id)],
    best_selling: [desc(products.soldCount), desc(products.id)],
    price_asc: [asc(stats.minPrice), asc(products.id)],
    price_desc: [desc(stats.minPrice), desc(products.id)],
  }[query.sort];
  const rows = await ctx.db
    .select({ ...cardColumns(stats), total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(products)
    .innerJoin(stats, eq(stats.productId, products.id))
    .where(and(...conditions))
    .orderBy(...order)
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size);
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && query.page > 1) {
    const counted = onlyRow(
      await ctx.db
        .select({ total: sql<number>`count(*)`.mapWith(Number) })
        .from(products)
        .innerJoin(stats, eq(stats.productId, products.id))
        .where(and(...conditions)),
    );
    total = counted.total;
  }
  return {
    records: await cardsFor(ctx, rows, locale),
    total,
    page: query.page,
    page_size: query.page_size,
    has_more: query.page * query.page_size < total,
  };
}

/** `GET /v1/goodGroup/list/1`: the home page's sections, each a collection with its first products. */
export async function homeSections(ctx: AppContext, locale: Locale, perSection = 8): Promise<HomeSection[]> {
  const collections = await collectionGroups(ctx);
  return Promise.all(
    collections.map(async (collection) => {
      const stats = skuStats(ctx);
      const rows = await ctx.db
        .select(cardColumns(stats))
        .from(productGroupMembers)
        .innerJoin(products, eq(products.id, productGroupMembers.productId))
        .innerJoin(stats, eq(stats.productId, products.id))
        .where(and(eq(productGroupMembers.groupId, collection.id), eq(products.listed, true)))
        .orderBy(asc(productGroupMembers.sort), desc(products.soldCount), asc(products.id))
        .limit(perSection);
      return {
        id: collection.id,
        slug: collection.slug,
        name: pickText(collection.name, locale),
        description: pickText(collection.description, locale),
        image: collection.image,
        products: await cardsFor(ctx, rows, locale),
      };
    }),
  );
}

/** SPEC section 3's service notes, by number; the storefront words note 3 from the shipping rules. */
export const SERVICE_NOTE_KEYS = {
  1: 'service.fastAfterSale',
  2: 'service.sevenDayReturn',
  3: 'shipping.promise.freeOverAnywhere',
  4: 'service.freeShipping',
} as const;

/** `GET /v1/good/{id}`: everything the product page shows. Null for unknown or unlisted products. */
export async function getProduct(ctx: AppContext, id: number, locale: Locale): Promise<ProductDetail | null> {
  const [product] = await ctx.db
    .select()
    .from(products)
    .where(and(eq(products.id, id), eq(products.listed, true)))
    .limit(1);
  if (!product) return null;
  const [images, properties, values, skus, memberships] = await Promise.all([
    ctx.db
      .select()
      .from(productImages)
      .where(eq(productImages.productId, id))
      .orderBy(asc(productImages.sort), asc(productImages.id)),
    ctx.db
      .select()
      .from(productProperties)
      .where(eq(productProperties.productId, id))
      .orderBy(asc(productProperties.sort), asc(productProperties.id)),
    ctx.db
      .select({ value: productPropertyValues })
      .from(productPropertyValues)
      .innerJoin(productProperties, eq(productProperties.id, productPropertyValues.propertyId))
      .where(eq(productProperties.productId, id))
      .orderBy(asc(productPropertyValues.sort), asc(productPropertyValues.id)),
    ctx.db
      .select()
      .from(productSkus)
      .where(and(eq(productSkus.productId, id), isNull(productSkus.retiredAt)))
      .orderBy(asc(productSkus.id)),
    ctx.db
      .select({
        id: productGroups.id,
        kind: productGroups.kind,
        name: productGroups.name,
        parentId: productGroups.parentId,
      })
      .from(productGroupMembers)
      .innerJoin(productGroups, eq(productGroups.id, productGroupMembers.groupId))
      .where(and(eq(productGroupMembers.productId, id), eq(productGroups.visible, true))),
  ]);
  const name = pickText(product.name, locale);
  const category = memberships.find((group) => group.kind === 'category');
  const prices = skus.map((sku) => sku.priceMinor);
  const minPrice = prices.length ? Math.min(...prices) : 0;
  const maxPrice = prices.length ? Math.max(...prices) : 0;
  const currency = currencyOf(skus[0]?.currency ?? 'CNY');
  return {
    id: product.id,
    slug: product.slug,
    name,
    description: pickText(product.description, locale),
    seo_title: product.seoTitle?.[locale]?.trim() ?? '',
    seo_description: product.seoDescription?.[locale]?.trim() ?? '',
    images: images.map((image) => ({
      url: image.url,
      width: image.width,
      height: image.height,
      alt: pickText(image.alt, locale) || name,
    })),
    property: properties.map((property) => ({
      id: property.id,
      name: pickText(property.name, locale),
      values: values
        .filter(({ value }) => value.propertyId === property.id)
        .map(({ value }) => ({
          id: value.id,
          name: pickText(value.value, locale),
          swatch: value.swatch,
          image: value.image,
        })),
    })),
    good_sku: skus.map((sku) => ({
      id: sku.id,
      code: sku.code,
      value_ids: sku.valueIds,
      price: formatAmount({ amountMinor: sku.priceMinor, currency: currencyOf(sku.currency) }),
      price_minor: sku.priceMinor,
      currency: currencyOf(sku.currency),
      stock: sku.stock,
      image: sku.image,
    })),
    price_range: {
      min: formatAmount({ amountMinor: minPrice, currency }),
      max: formatAmount({ amountMinor: maxPrice, currency }),
      min_minor: minPrice,
      max_minor: maxPrice,
      currency,
    },
    sold: product.soldCount,
    service_notes: product.serviceNotes.filter((note): note is 1 | 2 | 3 | 4 => note in SERVICE_NOTE_KEYS),
    category: category ? { id: category.id, name: pickText(category.name, locale) } : null,
    updated_at: product.updatedAt.toISOString(),
  };
}

/** `GET /v1/good/GetldList`: ids of every listed product, for prefetching and the sitemap. */
export async function listedProductIds(ctx: AppContext): Promise<ListedProduct[]> {
  const rows = await ctx.db
    .select({ id: products.id, updatedAt: products.updatedAt })
    .from(products)
    .where(eq(products.listed, true))
    .orderBy(asc(products.id));
  return rows.map((row) => ({ id: row.id, updated_at: row.updatedAt.toISOString() }));
}
