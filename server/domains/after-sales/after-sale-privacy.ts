import { and, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Locale } from '../../../i18n';
import { afterSaleHistory, afterSales } from '../../db/schema';
import type { AppContext, TransactionContext } from '../../context';
import { caseDetailView, loadCases } from './after-sale-views';
import type { AfterSaleDetail } from './after-sales.schemas';

/** A buyer's after-sale cases for their data export, newest first, as their case pages show them. */
export async function afterSalesForExport(ctx: AppContext, userId: number, locale: Locale): Promise<AfterSaleDetail[]> {
  const rows = await ctx.db.select().from(afterSales).where(eq(afterSales.userId, userId)).orderBy(desc(afterSales.id));
  const loaded = await loadCases(ctx, rows);
  return Promise.all(loaded.map((item) => caseDetailView(ctx, item, locale)));
}

/** What erasure writes over what a buyer wrote in a case. */
const ERASED_TEXT = '[erased]';

/**
 * Removes what the buyer wrote and showed in their cases (descriptions, appeal messages, photo
 * addresses; the photo files go with the private uploads) and keeps what the books need: types,
 * lines, quantities, amounts, dates, refunds. Runs in the erasure's transaction; answers how many
 * cases it kept.
 */
export async function erasePersonalDataOfCases(ctx: TransactionContext, userId: number): Promise<number> {
  const kept = await ctx.db
    .update(afterSales)
    .set({ description: ERASED_TEXT, photos: [], updatedAt: new Date() })
    .where(eq(afterSales.userId, userId))
    .returning({ id: afterSales.id });
  if (kept.length > 0)
    await ctx.db
      .update(afterSaleHistory)
      .set({ message: ERASED_TEXT })
      .where(
        and(
          inArray(
            afterSaleHistory.afterSaleId,
            kept.map((row) => row.id),
          ),
          eq(afterSaleHistory.actor, 'buyer'),
          isNotNull(afterSaleHistory.message),
        ),
      );
  return kept.length;
}
