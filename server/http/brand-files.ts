import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

/** The shop's own logo files (public/brand/), shipped with the code. */
const BRAND_FILE = /^[\w-]+\.(svg|png)$/;
const BRAND_ADDRESS = /^\/brand\/([\w-]+\.(?:svg|png))$/;
const TYPES: Record<string, string> = { svg: 'image/svg+xml', png: 'image/png' };

export interface BrandFiles {
  /**
   * '/brand/logo.svg' as the address pages use: under the files' version, served immutable for
   * a year; anything else (an operator's uploaded logo) unchanged.
   */
  address(url: string): string;
  /** The address of a brand logo's `-dark` twin (drawn for dark backgrounds), if it has one. */
  darkTwin(url: string): string | undefined;
}

const BRAND_LOGO = /^\/brand\/([\w-]+)\.svg$/;

/** Without a client build (development) the files are served as they are, from public/. */
export const UNVERSIONED_BRAND: BrandFiles = {
  address: (url) => url,
  darkTwin: (url) => {
    const name = BRAND_LOGO.exec(url)?.[1];
    return name && !name.endsWith('-dark') ? `/brand/${name}-dark.svg` : undefined;
  },
};

/**
 * Serves the brand files under `/brand/v/<version>/<name>`, where the version is a hash of all
 * of them: a release that redraws one moves every address, and a browser never keeps an old
 * logo (the Lighthouse long-cache hint). One version for the folder keeps a logo and its
 * `-dark` twin side by side. An address with another version is answered with the current file.
 */
export async function registerBrandFiles(app: FastifyInstance, brandDir: string): Promise<BrandFiles> {
  const names = (await fs.readdir(brandDir).catch(() => [] as string[])).filter((name) => BRAND_FILE.test(name)).sort();
  const files = new Map<string, Buffer>();
  const hash = createHash('sha256');
  for (const name of names) {
    const bytes = await fs.readFile(path.join(brandDir, name));
    files.set(name, bytes);
    hash.update(name).update('\0').update(bytes);
  }
  const version = hash.digest('hex').slice(0, 12);
  const addressOf = (name: string) => `/brand/v/${version}/${name}`;

  app.get<{ Params: { version: string; name: string } }>('/brand/v/:version/:name', async (request, reply) => {
    const bytes = files.get(request.params.name);
    if (!bytes) return reply.callNotFound();
    // Another version (a copy of another release during a rolling deploy, an old cached page)
    // gets today's file, kept briefly: a redirect could bounce between two releases' copies.
    const current = request.params.version === version;
    const type = TYPES[path.extname(request.params.name).slice(1)] ?? 'application/octet-stream';
    return reply
      .header('cache-control', current ? 'public, max-age=31536000, immutable' : 'public, max-age=300')
      .header('x-content-type-options', 'nosniff')
      .type(type)
      .send(bytes);
  });

  return {
    address(url) {
      const name = BRAND_ADDRESS.exec(url)?.[1];
      return name && files.has(name) ? addressOf(name) : url;
    },
    darkTwin(url) {
      const name = BRAND_LOGO.exec(url)?.[1];
      const twin = `${name}-dark.svg`;
      return name && !name.endsWith('-dark') && files.has(twin) ? addressOf(twin) : undefined;
    },
  };
}
