import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { contentPages, productGroups, productImages, productPropertyValues, productSkus } from '../db/schema';
import type { AppContext } from '../context';

/** Old picture address to the one that shows the same drawing now. */
export type ImageMoves = ReadonlyMap<string, string>;

/** `value` with every string that is a moved address replaced, however deep (content blocks). */
export function withMovedImages<T>(value: T, moves: ImageMoves): T {
  if (typeof value === 'string') return (moves.get(value) ?? value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => withMovedImages(item, moves)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withMovedImages(item, moves)])) as T;
  return value;
}

/** The catalogue's columns that hold one picture address each. */
const IMAGE_COLUMNS = [productImages.url, productSkus.image, productPropertyValues.image, productGroups.image];

function movedValue(column: PgColumn, moves: ImageMoves): SQL {
  const cases = [...moves].map(([from, to]) => sql`when ${from} then ${to}`);
  return sql`case ${column} ${sql.join(cases, sql` `)} else ${column} end`;
}

/**
 * Points every catalogue row that shows a moved picture (a product's gallery, a SKU, a colour
 * value, a group, a content page's blocks) at its new address; the operator's own rows too,
 * since the picture they chose is the same. Order lines keep the address they were sold with:
 * snapshots are not rewritten, and the old addresses keep answering (images.routes.ts).
 * Returns how many rows changed.
 */
export async function repointImageRows(ctx: AppContext, moves: ImageMoves): Promise<number> {
  const changes = new Map([...moves].filter(([from, to]) => from !== to));
  if (changes.size === 0) return 0;
  const from = [...changes.keys()];
  return ctx.db.transaction(async (tx) => {
    let count = 0;
    for (const column of IMAGE_COLUMNS) {
      const result = await tx.execute(sql`
        update ${column.table} set ${sql.identifier(column.name)} = ${movedValue(column, changes)}
        where ${inArray(column, from)} returning 1`);
      count += (result as unknown as { rows: unknown[] }).rows.length;
    }
    for (const page of await tx.select({ slug: contentPages.slug, blocks: contentPages.blocks }).from(contentPages)) {
      const blocks = withMovedImages(page.blocks, changes);
      if (JSON.stringify(blocks) === JSON.stringify(page.blocks)) continue;
      await tx.update(contentPages).set({ blocks }).where(eq(contentPages.slug, page.slug));
      count++;
    }
    return count;
  });
}
