import { eq, sql } from 'drizzle-orm';
import { pickText, type Locale, type LocalizedText } from '../../../i18n/locales';
import { productImages, productProperties, productPropertyValues, products, productSkus } from '../../db/schema';
import type { Database } from '../../db/client';
import { preparedPerDatabase } from '../../db/prepared';
import { AppError, BadRequestError, NotFoundError } from '../../shared/errors';
import { isCurrency, type Currency } from '../../shared/money';

/** Service note 4: "nationwide free shipping": the product adds no weight to the shipping fee. */
export const FREE_SHIPPING_NOTE = 4;

/** What the cart and checkout need to know about one SKU, straight from the catalogue. */
export interface SkuFacts {
  skuId: number;
  skuCode: string;
  productId: number;
  productName: LocalizedText;
  properties: Array<{ name: LocalizedText; value: LocalizedText }>;
  image: string | null;
  priceMinor: number;
  currency: Currency;
  stock: number;
  listed: boolean;
  weightGrams: number;
  freeShipping: boolean;
  /** Customs classification, for duties; null until the operator sets it. */
  hsCode: string | null;
  originCountry: string | null;
}

/**
 * One statement for every SKU asked about: its option values (in the options' order) and the
 * product's first image come as subqueries, since this runs on every cart change, checkout
 * quote and order, and each round trip to the database costs more than the subqueries.
 */
const skuFactsQuery = preparedPerDatabase((db) =>
  db
    .select({
      skuId: productSkus.id,
      skuCode: productSkus.code,
      priceMinor: productSkus.priceMinor,
      currency: productSkus.currency,
      stock: productSkus.stock,
      hsCode: productSkus.hsCode,
      originCountry: productSkus.originCountry,
      productId: products.id,
      productName: products.name,
      // A retired SKU (ADR 0160) stays for the orders that name it, never for sale again.
      listed: sql<boolean>`${products.listed} and ${productSkus.retiredAt} is null`,
      weightGrams: products.weightGrams,
      serviceNotes: products.serviceNotes,
      properties: sql<SkuFacts['properties']>`(
        select coalesce(json_agg(json_build_object('name', option.name, 'value', choice.value)
          order by option.sort, array_position("product_skus"."value_ids", choice.id)), '[]'::json)
        from ${productPropertyValues} choice
        join ${productProperties} option on option.id = choice.property_id
        where choice.id = any("product_skus"."value_ids"))`,
      image: sql<string | null>`coalesce("product_skus"."image", (
        select picture.url from ${productImages} picture
        where picture.product_id = "products"."id"
        order by picture.sort, picture.id limit 1))`,
    })
    .from(productSkus)
    .innerJoin(products, eq(products.id, productSkus.productId))
    .where(sql`${productSkus.id} = any(${sql.placeholder('ids')})`)
    .prepare('sku_facts'),
);

export async function loadSkuFacts(db: Database, skuIds: number[]): Promise<Map<number, SkuFacts>> {
  const ids = [...new Set(skuIds)];
  if (ids.length === 0) return new Map();
  const rows = await skuFactsQuery(db).execute({ ids });
  return new Map(
    rows.map((row) => [
      row.skuId,
      {
        skuId: row.skuId,
        skuCode: row.skuCode,
        productId: row.productId,
        productName: row.productName,
        properties: row.properties,
        image: row.image,
        priceMinor: row.priceMinor,
        currency: isCurrency(row.currency) ? row.currency : 'CNY',
        stock: row.stock,
        listed: row.listed,
        weightGrams: row.weightGrams,
        freeShipping: row.serviceNotes.includes(FREE_SHIPPING_NOTE),
        hsCode: row.hsCode,
        originCountry: row.originCountry,
      },
    ]),
  );
}

export type LineProblem = 'sold_out' | 'insufficient_stock' | 'unlisted';

/** What stops a quantity of a SKU from being bought right now, if anything. */
export function lineProblem(facts: SkuFacts, quantity: number): LineProblem | null {
  if (!facts.listed) return 'unlisted';
  if (facts.stock <= 0) return 'sold_out';
  if (quantity > facts.stock) return 'insufficient_stock';
  return null;
}

/**
 * The one refusal for a quantity the shelf cannot give, wherever it is found: adding to or
 * changing the cart, the checkout quote, or the stock guard when the order is placed. It is a
 * conflict (409, docs/api.md): the request is well formed, the shelf is what says no, and a
 * smaller quantity may still go through. Sold out when nothing is left, else how many are.
 */
export class OutOfStockError extends AppError {
  constructor(name: string, stock: number) {
    super('conflict', stock > 0 ? 'cart.notEnoughStock' : 'cart.soldOut', { name, stock });
  }
}

/** Refuses a quantity the shelf cannot give right now, naming the product. */
export function assertLineBuyable(
  sku: SkuFacts | undefined,
  quantity: number,
  locale: Locale,
): asserts sku is SkuFacts {
  if (!sku) throw new NotFoundError('cart.skuNotFound');
  const name = pickText(sku.productName, locale);
  const problem = lineProblem(sku, quantity);
  if (problem === 'unlisted') throw new BadRequestError('cart.unlisted', { name });
  if (problem === 'sold_out' || problem === 'insufficient_stock') throw new OutOfStockError(name, sku.stock);
}

export function propertiesText(properties: SkuFacts['properties'], pick: (text: LocalizedText) => string): string {
  return properties.map((property) => `${pick(property.name)}: ${pick(property.value)}`).join(' / ');
}
