import { count } from 'drizzle-orm';
import { products } from '../db/schema';
import { seedCoupons } from '../domains/coupons/coupons.service';
import { seedImportRules } from '../domains/duties/import-rules.seed';
import { seedShippingRules } from '../domains/shipping/shipping.service';
import { seedExchangeRates } from '../domains/exchange-rates/exchange-rates.service';
import { seedSiteSettings } from '../domains/site-settings/site-settings.service';
import type { AppContext } from '../context';
import { bumpContentVersion } from '../shared/content-version';
import { seedCatalog } from './catalog';
import { blobStoreOf } from '../domains/media/blob-stores';
import { readDemoImageManifest, writeDemoImageManifest } from './demo-image-manifest';
import { repointImageRows, type ImageMoves } from './demo-image-rows';
import { allDemoImageJobs, ART_VERSION, demoUrl, generateDemoImages, publishDemoImages } from './demo-images';

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
      // The rows are there, but the store may not have the pictures yet (a new bucket, a wiped
      // data dir), or the rows may still name them by their drawings (seeded before they moved).
      await placeDemoImages(ctx);
      return;
    }
  }
  await seedSiteSettings(ctx);
  const moves = await placeDemoImages(ctx);
  const started = performance.now();
  const stats = await seedCatalog(ctx, moves);
  ctx.log.info({ ...stats, milliseconds: Math.round(performance.now() - started) }, 'demo catalogue loaded');
  await bumpContentVersion(ctx);
}

/**
 * Makes sure every demo picture is in the blob store under its content-hashed address and
 * that the rows showing it point there; returns each drawing's moves (its name and any
 * earlier address, to where it lives now). When the store's manifest says this ART_VERSION
 * is fully published, nothing is drawn, read or written. A picture that cannot be drawn or
 * stored is logged, never fatal to starting the shop: it keeps its old address, and the next
 * start tries again.
 */
async function placeDemoImages(ctx: AppContext): Promise<ImageMoves> {
  const store = blobStoreOf(ctx.env);
  const names = allDemoImageJobs().map((job) => job.name);
  const previous = await readDemoImageManifest(store).catch((error: unknown) => {
    ctx.log.error({ err: error }, 'the demo images manifest could not be read');
    return null;
  });
  let current = previous;
  if (previous?.artVersion !== ART_VERSION || names.some((name) => !Object.hasOwn(previous.images, name))) {
    const images = await drawAndPublish(ctx);
    current = { artVersion: ART_VERSION, images: Object.fromEntries(images) };
    if (images.size > 0)
      await writeDemoImageManifest(store, current).catch((error: unknown) =>
        ctx.log.error({ err: error }, 'the demo images manifest could not be written'),
      );
  }
  const moves = new Map<string, string>();
  for (const [name, url] of Object.entries(current?.images ?? {})) {
    moves.set(demoUrl(name), url);
    const earlier = previous?.images[name];
    if (earlier && earlier !== url) moves.set(earlier, url);
  }
  const repointed = await repointImageRows(ctx, moves);
  if (repointed > 0) {
    ctx.log.info({ rows: repointed }, 'demo pictures repointed to their content-hashed addresses');
    await bumpContentVersion(ctx);
  }
  return moves;
}

/** Draws any missing demo picture and puts every drawn one in the blob store; their addresses by name. */
async function drawAndPublish(ctx: AppContext): Promise<Map<string, string>> {
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
    if (published.copied > 0)
      ctx.log.info({ copied: published.copied, skipped: published.skipped }, 'demo images put in the blob store');
    return published.urls;
  } catch (error) {
    ctx.log.error({ err: error }, 'demo images could not be put in the blob store');
    return new Map();
  }
}
