import { eq } from 'drizzle-orm';
import { products } from '../../db/schema';
import type { ActingContext } from '../../context';
import { NotFoundError } from '../../shared/errors';
import { recordAudit } from '../audit/audit.service';

/**
 * Marks a product as sold final (or not): after-sales then take it back only when it is the
 * shop's fault (ADR 0130). Orders placed before keep the rule of the moment a case is asked.
 */
export async function setFinalSale(
  ctx: ActingContext,
  input: { productId: number; finalSale: boolean },
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [product] = await tx.select().from(products).where(eq(products.id, input.productId)).for('update');
    if (!product) throw new NotFoundError('error.notFound');
    if (product.finalSale === input.finalSale) return;
    await tx
      .update(products)
      .set({ finalSale: input.finalSale, updatedAt: new Date() })
      .where(eq(products.id, input.productId));
    await recordAudit(
      { ...ctx, db: tx },
      {
        action: 'product.final_sale',
        entityType: 'product',
        entityId: product.id,
        before: { final_sale: product.finalSale },
        after: { final_sale: input.finalSale },
      },
    );
  });
}
