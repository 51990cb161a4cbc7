import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { LocalizedText } from '../../i18n/locales';
import type { BlobStore } from '../domains/media/blob-store';
import { HASHED_IMAGE_PREFIX, hashedImageKey } from '../domains/media/media-images.service';
import { DRAWERS } from './art';
import type { ImageMoves } from './demo-image-rows';
import { paint } from './art/paint';
import { detailView, frontView, groupView, lifestyleView, tableView } from './art/scenes';
import { DEMO_GROUPS, DEMO_PRODUCTS, productLooks, type SeedGroup, type SeedProduct } from './catalog-data';
import { DEMO_VIDEOS, POSTER_SIZE, posterName } from './content-pages';

/**
 * The demo shop's pictures, drawn from SVG in code and encoded to webp with sharp: no
 * network, no shipped assets. Drawings are kept in <dataDir>/images/demo so a restart need
 * not redraw them, and published to the blob store under the hash of their bytes, where they
 * are served like the console's uploads (`/images/h/<hash>.webp`, immutable, resized variants
 * stored once). Bump ART_VERSION whenever a drawing changes so old files are redrawn: the new
 * bytes get new addresses and the seed repoints its rows (./demo-image-rows.ts).
 */
export const ART_VERSION = '2';
const VERSION_FILE = '.art-version';

export const PRODUCT_IMAGE_SIZE = 800;
export const GROUP_IMAGE_SIZE = { width: 1200, height: 800 } as const;

export interface ImageJob {
  name: string;
  width: number;
  height: number;
  svg: () => Promise<string>;
}

export interface PlannedImage {
  url: string;
  width: number;
  height: number;
  alt: LocalizedText;
}

export interface ProductImagePlan {
  images: PlannedImage[];
  /** Front picture of each value of the product's image axis, by value key. */
  byValue: Map<string, string>;
  jobs: ImageJob[];
}

/**
 * A drawing's name as an address: what the catalogue plan holds until the seed swaps it for
 * the published, content-hashed one, and what shops seeded before that still link to (the
 * images routes redirect it permanently).
 */
export const demoUrl = (name: string) => `/images/demo/${name}.webp`;

function drawProduct(product: SeedProduct, color: string, variant: string) {
  return DRAWERS[product.art](paint(color), { seed: `${product.slug}-${variant}` });
}

/**
 * A product gets a front view per colour (or other look), plus a close-up and a lifestyle
 * picture in its first colour. Gallery order: first front, close-up, lifestyle, other fronts.
 * Addresses are the drawings' names unless `moves` gives their published ones.
 */
export function planProductImages(product: SeedProduct, moves: ImageMoves = new Map()): ProductImagePlan {
  const urlOf = (name: string) => moves.get(demoUrl(name)) ?? demoUrl(name);
  const looks = productLooks(product);
  const size = PRODUCT_IMAGE_SIZE;
  const axis = product.properties.find((property) => property.values.some((value) => value.key === looks[0].key));
  const lookName = (key: string | null) => axis?.values.find((value) => value.key === key)?.name;
  const fronts = looks.map((look) => {
    const name = look.key ? `${product.slug}-${look.key}` : product.slug;
    const label = lookName(look.key);
    return {
      key: look.key,
      job: {
        name,
        width: size,
        height: size,
        svg: () => frontView(drawProduct(product, look.color, 'front'), look.color, size),
      },
      image: {
        url: urlOf(name),
        width: size,
        height: size,
        alt: label
          ? { en: `${product.name.en}, ${label.en}`, 'zh-cn': `${product.name['zh-cn']}（${label['zh-cn']}）` }
          : product.name,
      },
    };
  });
  const first = looks[0];
  const detail: ImageJob = {
    name: `${product.slug}-detail`,
    width: size,
    height: size,
    svg: () => detailView(drawProduct(product, first.color, 'detail'), first.color, size),
  };
  const lifestyle: ImageJob = {
    name: `${product.slug}-lifestyle`,
    width: size,
    height: size,
    svg: () => lifestyleView(drawProduct(product, first.color, 'lifestyle'), first.color, product.slug, size, size),
  };
  const images: PlannedImage[] = [
    fronts[0]!.image,
    {
      url: urlOf(detail.name),
      width: size,
      height: size,
      alt: { en: `${product.name.en}, close-up`, 'zh-cn': `${product.name['zh-cn']} 细节` },
    },
    {
      url: urlOf(lifestyle.name),
      width: size,
      height: size,
      alt: { en: `${product.name.en} at home`, 'zh-cn': `${product.name['zh-cn']} 使用场景` },
    },
    ...fronts.slice(1).map((front) => front.image),
  ];
  const byValue = new Map(fronts.filter((front) => front.key).map((front) => [front.key as string, front.image.url]));
  return { images, byValue, jobs: [fronts[0]!.job, detail, lifestyle, ...fronts.slice(1).map((front) => front.job)] };
}

export function planGroupImage(group: SeedGroup): { url: string; job: ImageJob } {
  const name = `group-${group.slug}`;
  const { width, height } = GROUP_IMAGE_SIZE;
  const heroes = group.hero
    .map((slug) => DEMO_PRODUCTS.find((product) => product.slug === slug))
    .filter((product): product is SeedProduct => Boolean(product));
  return {
    url: demoUrl(name),
    job: {
      name,
      width,
      height,
      svg: () => {
        const items = heroes.map((product, i) => {
          const looks = productLooks(product);
          const color = (looks[i % 2] ?? looks[0]).color;
          return { art: drawProduct(product, color, 'group'), color };
        });
        return groupView(items, items[0]?.color ?? '#d8c3a0', width, height);
      },
    },
  };
}

export function posterJobs(): ImageJob[] {
  return DEMO_VIDEOS.map((video, index) => ({
    name: posterName(index),
    ...POSTER_SIZE,
    svg: () =>
      tableView(
        video.scene.items.map((item, i) => ({
          art: DRAWERS[item.art](paint(item.color), { seed: `video-${index}-${i}` }),
          color: item.color,
        })),
        video.scene.tint,
        `video-${index}`,
        POSTER_SIZE.width,
        POSTER_SIZE.height,
      ),
  }));
}

/** Every picture the demo shop uses. */
export function allDemoImageJobs(): ImageJob[] {
  return [
    ...DEMO_PRODUCTS.flatMap((product) => planProductImages(product).jobs),
    ...DEMO_GROUPS.map((group) => planGroupImage(group).job),
    ...posterJobs(),
  ];
}

export function demoImageDir(dataDir: string): string {
  return path.join(dataDir, 'images', 'demo');
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

export interface GenerateResult {
  written: number;
  skipped: number;
  failed: Array<{ name: string; error: string }>;
  milliseconds: number;
}

/**
 * Draws every missing picture (all of them after an ART_VERSION bump), a few at a time.
 * Each file is written under a temporary name and renamed, so a crash or a second process
 * never leaves half a file behind.
 */
export async function generateDemoImages(
  dataDir: string,
  jobs: ImageJob[] = allDemoImageJobs(),
  options: { concurrency?: number } = {},
): Promise<GenerateResult> {
  const started = performance.now();
  const dir = demoImageDir(dataDir);
  await fs.mkdir(dir, { recursive: true });
  const versionFile = path.join(dir, VERSION_FILE);
  const current = await fs.readFile(versionFile, 'utf8').catch(() => '');
  const redraw = current.trim() !== ART_VERSION;
  const result: GenerateResult = { written: 0, skipped: 0, failed: [], milliseconds: 0 };
  const queue = [...new Map(jobs.map((job) => [job.name, job])).values()];
  const concurrency = options.concurrency ?? Math.min(4, Math.max(2, os.availableParallelism()));

  async function worker(): Promise<void> {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const file = path.join(dir, `${job.name}.webp`);
      if (!redraw && (await exists(file))) {
        result.skipped++;
        continue;
      }
      const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      try {
        await sharp(Buffer.from(await job.svg()), { density: 72 })
          .resize(job.width, job.height, { fit: 'cover' })
          .webp({ quality: 82, effort: 2 })
          .toFile(temp);
        await fs.rename(temp, file);
        result.written++;
      } catch (error) {
        await fs.rm(temp, { force: true });
        result.failed.push({ name: job.name, error: error instanceof Error ? error.message : String(error) });
      }
    }
  }

  await Promise.all(Array.from({ length: concurrency }, () => worker()));
  if (result.failed.length === 0) await fs.writeFile(versionFile, ART_VERSION);
  result.milliseconds = Math.round(performance.now() - started);
  return result;
}

export interface PublishResult {
  copied: number;
  skipped: number;
  /** Drawing name to its content-hashed address, for every drawing now in the store. */
  urls: Map<string, string>;
}

/**
 * Puts every drawn picture into the blob store (the DATA_DIR folder or the S3 bucket) under
 * the hash of its bytes, the scheme the console's uploads use (media-images.service.ts). A key
 * already there holds these very bytes, so it is not written again. A drawing that is missing
 * (it failed) gets no address.
 */
export async function publishDemoImages(
  dataDir: string,
  store: BlobStore,
  jobs: ImageJob[] = allDemoImageJobs(),
): Promise<PublishResult> {
  const result: PublishResult = { copied: 0, skipped: 0, urls: new Map() };
  const dir = demoImageDir(dataDir);
  const queue = [...new Set(jobs.map((job) => job.name))];
  async function worker(): Promise<void> {
    for (let name = queue.shift(); name; name = queue.shift()) {
      const bytes = await fs.readFile(path.join(dir, `${name}.webp`)).catch(() => null);
      if (!bytes) continue;
      const file = `${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.webp`;
      const key = hashedImageKey(file);
      if (!key) throw new Error(`the hashed name ${file} is not one the images route serves`);
      if (await store.head(key)) result.skipped++;
      else {
        await store.put(key, bytes, { contentType: 'image/webp', visibility: 'public' });
        result.copied++;
      }
      result.urls.set(name, `${HASHED_IMAGE_PREFIX}${file}`);
    }
  }
  await Promise.all(Array.from({ length: 8 }, () => worker()));
  return result;
}
