import { sql, type SQL } from 'drizzle-orm';
import { pickText, type Locale, type LocalizedText } from '../../../i18n/locales';
import { productImages, productProperties, productPropertyValues, products, productSkus } from '../../db/schema';
import type { Database } from '../../db/client';
import { preparedPerDatabase } from '../../db/prepared';
import { AppError, BadRequestError, NotFoundError } from '../../shared/errors';
import { isCurrency, type Currency } from '../../shared/money';
import { inListedIds } from '../../db/listed-ids';
import { parsedJson } from '../../db/json-rows';

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
 * The facts of every SKU whose id is in `ids` (an `int[]`), as one JSON array: its option values
 * (in the options' order) and the product's first image come as subqueries, since this runs on
 * every cart change, checkout quote and order, and each round trip to the database costs more
 * than the subqueries. As JSON it can also travel inside a larger read (the checkout's,
 * checkout/quote-facts.ts); `skuFactsFromJson` reads it back.
 */
export function skuFactsJson(ids: SQL): SQL<unknown> {
  // Named through aliases of their own: drizzle leaves columns unqualified in a select's fields,
  // where this may stand.
  const sku = (column: keyof typeof productSkus._.columns) => sql`sku.${sql.identifier(productSkus[column].name)}`;
  const product = (column: keyof typeof products._.columns) => sql`product.${sql.identifier(products[column].name)}`;
  // `listed`: a retired SKU (ADR 0160) stays for the orders that name it, never for sale again.
  return sql`(select coalesce(json_agg(json_build_object(
      'skuId', ${sku('id')},
      'skuCode', ${sku('code')},
      'priceMinor', ${sku('priceMinor')},
      'currency', ${sku('currency')},
      'stock', ${sku('stock')},
      'hsCode', ${sku('hsCode')},
      'originCountry', ${sku('originCountry')},
      'productId', ${product('id')},
      'productName', ${product('name')},
      'listed', ${product('listed')} and ${sku('retiredAt')} is null,
      'weightGrams', ${product('weightGrams')},
      'serviceNotes', ${product('serviceNotes')},
      'properties', (
        select coalesce(json_agg(json_build_object('name', option.name, 'value', choice.value)
          order by option.sort, array_position(${sku('valueIds')}, choice.id)), '[]'::json)
        from ${productPropertyValues} choice
        join ${productProperties} option on option.id = choice.property_id
        where choice.id = any(${sku('valueIds')})),
      'image', coalesce(${sku('image')}, (
        select picture.url from ${productImages} picture
        where picture.product_id = ${product('id')}
        order by picture.sort, picture.id limit 1)))), '[]'::json)
    from ${productSkus} sku
    join ${products} product on ${product('id')} = ${sku('productId')}
    where ${inListedIds(sku('id'), ids)})`;
}

/** A SKU's facts as `skuFactsJson` writes them. */
interface SkuFactsJsonRow extends Omit<SkuFacts, 'currency' | 'freeShipping'> {
  currency: string;
  serviceNotes: number[];
}

/** `skuFactsJson`'s array read back, by SKU id. */
export function skuFactsFromJson(json: unknown): Map<number, SkuFacts> {
  const rows = parsedJson(json) as SkuFactsJsonRow[];
  return new Map(
    rows.map(({ serviceNotes, currency, ...row }) => [
      row.skuId,
      {
        ...row,
        currency: isCurrency(currency) ? currency : 'CNY',
        freeShipping: serviceNotes.includes(FREE_SHIPPING_NOTE),
      },
    ]),
  );
}

const skuFactsQuery = preparedPerDatabase((db) => {
  const facts = db
    .$with('facts', { skus: sql<unknown>`skus`.as('skus') })
    .as(sql`select ${skuFactsJson(sql`${sql.placeholder('ids')}`)} as skus`);
  return db.with(facts).select({ skus: facts.skus }).from(facts).prepare('sku_facts');
});

export async function loadSkuFacts(db: Database, skuIds: number[]): Promise<Map<number, SkuFacts>> {
  const ids = [...new Set(skuIds)];
  if (ids.length === 0) return new Map();
  const [row] = await skuFactsQuery(db).execute({ ids });
  return skuFactsFromJson(row?.skus ?? []);
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
