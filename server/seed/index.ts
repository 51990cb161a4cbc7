import { count, like } from 'drizzle-orm';
import { productImages, products } from '../db/schema';
import { seedCoupons } from '../domains/coupons/coupons.service';
import { seedImportRules } from '../domains/duties/import-rules.seed';
import { seedShippingRules } from '../domains/shipping/shipping.service';
import { seedExchangeRates } from '../domains/exchange-rates/exchange-rates.service';
import { seedSiteSettings } from '../domains/site-settings/site-settings.service';
import type { AppContext } from '../context';
import { bumpContentVersion } from '../shared/content-version';
import { seedCatalog } from './catalog';
import { blobStoreOf } from '../domains/media/blob-stores';
import { generateDemoImages, publishDemoImages } from './demo-images';

/**
 * Loads the demo shop. Idempotent: rows are matched by their stable slugs and settings
 * the operator already changed are left alone, so it is safe to run on every start.
 */
export async function seedDemoData(ctx: AppContext, options: { onlyIfEmpty?: boolean } = {}): Promise<void> {
  // Shipping rules, demo coupons and import rules are added to shops that started before they existed;
  // rows already there (an operator's changes) are left alone.
  await seedShippingRules(ctx.db);
  await seedCoupons(ctx.db);
  await seedImportRules(ctx.db);
  await seedExchangeRates(ctx);
  if (options.onlyIfEmpty) {
    const [{ value } = { value: 0 }] = await ctx.db.select({ value: count() }).from(products);
    if (value > 0) {
      // The rows are there, but this copy's data directory may not have the pictures yet
      // (a new machine against a shared PostgreSQL, or a wiped data dir).
      const [demo] = await ctx.db
        .select({ id: productImages.id })
        .from(productImages)
        .where(like(productImages.url, '/images/demo/%'))
        .limit(1);
      if (demo) await drawDemoImages(ctx);
      return;
    }
  }
  await seedSiteSettings(ctx);
  await drawDemoImages(ctx);
  const started = performance.now();
  const stats = await seedCatalog(ctx);
  ctx.log.info({ ...stats, milliseconds: Math.round(performance.now() - started) }, 'demo catalogue loaded');
  await bumpContentVersion(ctx);
}

/**
 * Draws any missing demo picture (a failure is logged, never fatal to starting the shop), and
 * copies them to the blob store when that is a bucket.
 */
async function drawDemoImages(ctx: AppContext): Promise<void> {
  const result = await generateDemoImages(ctx.env.dataDir);
  if (result.failed.length > 0) {
    ctx.log.error(
      { failed: result.failed.slice(0, 5), count: result.failed.length },
      'some demo images could not be drawn',
    );
  }
  if (result.written > 0)
    ctx.log.info(
      { written: result.written, skipped: result.skipped, milliseconds: result.milliseconds },
      'demo images drawn',
    );
  try {
    const published = await publishDemoImages(ctx.env.dataDir, blobStoreOf(ctx.env));
    if (published.copied > 0) ctx.log.info(published, 'demo images copied to the blob store');
  } catch (error) {
    ctx.log.error({ err: error }, 'demo images could not be copied to the blob store');
  }
}
