import type { AppContext } from '../../context';
import { productGroups } from '../../db/schema';
import { retirePageScopes, type PageScope } from '../../shared/content-version';

/** What a catalogue change touched: the products, the groups they are or were in, and the home. */
export interface CatalogChange {
  productIds?: readonly number[];
  /** Every group the change touched: the ones a product is in now and the ones it left. */
  groupIds?: readonly number[];
  /** True when the home shows what changed beyond its collections' products (its category tiles, section order). */
  home?: boolean;
}

/**
 * The one rule for which cached pages and API answers a catalogue edit retires (product,
 * group and home editors all call it after their transaction commits):
 * - each product's page and `GET /v1/good/:id`;
 * - when products changed, the listings that may show any product (search, the unfiltered
 *   product list, the id list);
 * - each group's listing and those of the categories above it (a parent lists its children's
 *   products);
 * - the home when asked, or when one of the groups is a collection (its home section).
 * Content pages, other products' pages and other groups' listings stay cached. A change to
 * what every page shows (a category's name in the navigation, settings) bumps the content
 * version instead (bumpContentVersion).
 */
export async function retireCatalogPages(ctx: AppContext, change: CatalogChange): Promise<void> {
  const productIds = [...new Set(change.productIds ?? [])];
  const scopes: PageScope[] = productIds.map((id) => `product:${id}` as const);
  if (productIds.length > 0) scopes.push('listings');
  let home = change.home ?? false;
  if (change.groupIds && change.groupIds.length > 0) {
    const groups = await ctx.db
      .select({ id: productGroups.id, parentId: productGroups.parentId, kind: productGroups.kind })
      .from(productGroups);
    const byId = new Map(groups.map((group) => [group.id, group]));
    const touched = new Set<number>();
    for (const id of change.groupIds) {
      for (let group = byId.get(id); group && !touched.has(group.id); group = byId.get(group.parentId ?? -1)) {
        touched.add(group.id);
        if (group.kind === 'collection') home = true;
      }
      touched.add(id);
    }
    for (const id of touched) scopes.push(`group:${id}`);
  }
  if (home) scopes.push('home');
  await retirePageScopes(ctx, scopes);
}
