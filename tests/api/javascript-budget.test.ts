import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/test-server';

/**
 * The catalogue issue's budget: a product page loads at most 120 KB of JavaScript, gzip
 * (docs/decisions/0033-javascript-budget.md), kept after the console's routes reordered the
 * shared React chunk (docs/decisions/0104-javascript-budget-after-the-console.md). Counted from
 * the production build as the server sends it: the scripts the page preloads, plus the
 * message packs its entry loads.
 * Sizes, not timings, so it is exact on any machine; `npm run bench:lighthouse` records
 * the same number from what Chromium actually loaded.
 */
const BUDGET_BYTES = 120 * 1024;

const server = useTestServer();

/** Bytes of a URL as sent with `Accept-Encoding: gzip` (not decompressed). */
function gzipBytes(url: string): Promise<{ status: number; encoding: string | undefined; bytes: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, encoding: response.headers['content-encoding'], bytes }),
        );
      })
      .on('error', reject);
  });
}

async function scriptsOf(pagePath: string): Promise<string[]> {
  const page = await server.request(pagePath);
  expect(page.status).toBe(200);
  const preloaded = [...page.text.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((match) => match[1]!);
  const locale = pagePath.split('/')[1];
  if (!locale) throw new Error(`no locale in the page path ${pagePath}`);
  const packs = /data-message-packs="([^"]*)"/.exec(page.text)?.[1]!.split(' ') ?? [];
  const assets = await Promise.all(packs.map((pack) => packChunk(page.text, locale, pack)));
  return [...new Set([...preloaded, ...assets])];
}

/** A pack's chunk URL, as the entry's import map of packs names it (the file name carries a hash). */
async function packChunk(html: string, locale: string, pack: string): Promise<string> {
  const entry = /<link rel="modulepreload" href="(\/assets\/entry\.client-[^"]+)"/.exec(html)?.[1];
  const shell = /<link rel="modulepreload" href="(\/assets\/shell-[^"]+)"/.exec(html)?.[1];
  for (const script of [entry, shell]) {
    if (!script) continue;
    const text = await (await fetch(server.url + script)).text();
    const found = new RegExp(`messages-${locale}-${pack}-[\\w-]{8}\\.js`).exec(text)?.[0];
    if (found) return `/assets/${found}`;
  }
  throw new Error(`no chunk for the ${locale} ${pack} message pack`);
}

describe('JavaScript budget', () => {
  for (const locale of ['en', 'zh-cn']) {
    it(`a ${locale} product page loads at most 120 KB of JavaScript, gzip`, async () => {
      const scripts = await scriptsOf(`/${locale}/product/1`);
      expect(scripts.some((url) => url.includes('/vendor-'))).toBe(true);
      expect(scripts.some((url) => url.includes('/router-'))).toBe(true);
      expect(scripts.some((url) => url.includes(`/messages-${locale}-storefront-`))).toBe(true);
      expect(scripts.filter((url) => /\/messages-/.test(url))).toHaveLength(1);
      let total = 0;
      for (const url of scripts) {
        const sent = await gzipBytes(server.url + url);
        expect(sent.status, url).toBe(200);
        if (sent.bytes > 1024) expect(sent.encoding, url).toBe('gzip');
        total += sent.bytes;
      }
      expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
    });
  }
});
