import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { preparedPerDatabase } from '../../db/prepared';
import { parsedJson } from '../../db/json-rows';
import type { userAddresses } from '../../db/schema';
import { addressFromJson, orderAddressJson } from '../addresses/addresses.service';
import { cartLinesJson, type CartKey } from '../cart/cart.service';
import { skuFactsFromJson, skuFactsJson, type SkuFacts } from '../catalog/sku-facts';
import { orderByIdempotencyKeyJson, orderFromJson, type OrderRow } from '../orders/order-state';

/** A line a buyer asks to buy: from the cart, or chosen on the page. */
export type RequestedLine = { skuId: number; quantity: number };

/** What a checkout quote reads from the database, all from one snapshot. */
export interface QuoteFacts {
  /** The cart's lines in its order, when the quote is for the cart; empty otherwise. */
  cartLines: RequestedLine[];
  skus: Map<number, SkuFacts>;
  /** The address asked for, or the buyer's default; null when there is none. */
  address: typeof userAddresses.$inferSelect | null;
  /** The order this buyer already placed with the request's idempotency key. */
  orderWithKey: OrderRow | null;
}

type QuoteFactsParameters = {
  userId: number;
  /** The cart to quote, or null to quote `skuIds`. */
  cartKey: CartKey | null;
  skuIds: number[];
  /** Null: the buyer's default address. */
  addressId: number | null;
  idempotencyKey: string | null;
};

/**
 * Everything a quote or a placement reads, in one statement (one round trip) whose parts each
 * domain writes: the cart's lines, the facts of their SKUs (or of the SKUs asked for), the
 * address and the order an idempotency key already placed. A buyer's order costs this read and
 * the placement's one statement (place-order.statement.ts); a refusal (sold out, unlisted) is
 * decided from this snapshot alone, and a repeated key is answered from it.
 */
const quoteFactsStatement = preparedPerDatabase((db: Database) => {
  const parameter = (name: keyof QuoteFactsParameters) => sql`${sql.placeholder(name)}`;
  const requested = db
    .$with('requested', { cart: sql<unknown>`cart`.as('cart') })
    .as(sql`select ${cartLinesJson(parameter('cartKey'))} as cart`);
  const skuIds = sql`case when ${parameter('cartKey')}::text is null then ${parameter('skuIds')}::int[]
    else array(select (line->>'skuId')::int from json_array_elements(${requested.cart}) as line) end`;
  return db
    .with(requested)
    .select({
      cart: requested.cart,
      skus: skuFactsJson(skuIds),
      address: orderAddressJson(db, parameter('userId'), parameter('addressId')),
      orderWithKey: orderByIdempotencyKeyJson(db, parameter('userId'), parameter('idempotencyKey')),
    })
    .from(requested)
    .prepare('quote_facts');
});

export async function readQuoteFacts(db: Database, parameters: QuoteFactsParameters): Promise<QuoteFacts> {
  const [row] = await quoteFactsStatement(db).execute(parameters);
  if (!row) throw new Error('reading the quote facts answered no row');
  return {
    cartLines: parsedJson(row.cart) as RequestedLine[],
    skus: skuFactsFromJson(row.skus),
    address: addressFromJson(row.address),
    orderWithKey: orderFromJson(row.orderWithKey),
  };
}
