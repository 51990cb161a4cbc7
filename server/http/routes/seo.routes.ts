import type { FastifyInstance } from 'fastify';
import { LOCALES } from '../../../i18n/locales';
import { visibleGroups } from '../../domains/catalog/groups.service';
import { listedProductIds } from '../../domains/catalog/products.service';
import { CONTENT_PAGE_SLUGS } from '../../domains/content/content.service';
import { siteOriginOf } from '../request-context';

function escapeXml(value: string): string {
  return value.replace(
    /[<>&'"]/g,
    (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[char]!,
  );
}

interface SitemapEntry {
  path: string;
  lastModified?: string;
}

/** One <url> per locale, each listing its alternates (hreflang), as search engines recommend. */
function sitemapXml(origin: string, entries: SitemapEntry[]): string {
  const urls = entries.flatMap(({ path, lastModified }) =>
    LOCALES.map((locale) => {
      const alternates = LOCALES.map(
        (alternate) =>
          `<xhtml:link rel="alternate" hreflang="${alternate === 'zh-cn' ? 'zh-Hans' : 'en'}" href="${escapeXml(`${origin}/${alternate}${path}`)}"/>`,
      ).join('');
      const lastmod = lastModified ? `<lastmod>${lastModified.slice(0, 10)}</lastmod>` : '';
      return `<url><loc>${escapeXml(`${origin}/${locale}${path}`)}</loc>${lastmod}${alternates}</url>`;
    }),
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`;
}

/** `/sitemap.xml` (every product, group and content page in both locales) and `/robots.txt`. */
export async function seoRoutes(app: FastifyInstance): Promise<void> {
  app.get('/robots.txt', { schema: { hide: true } }, async (request, reply) => {
    const origin = siteOriginOf(request);
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600');
    return [
      'User-agent: *',
      'Allow: /',
      'Disallow: /v1/',
      'Disallow: /v2/',
      ...LOCALES.flatMap((locale) => [
        `Disallow: /${locale}/my/`,
        `Disallow: /${locale}/order/`,
        `Disallow: /${locale}/result/`,
      ]),
      '',
      `Sitemap: ${origin}/sitemap.xml`,
      '',
    ].join('\n');
  });

  app.get('/sitemap.xml', { schema: { hide: true } }, async (request, reply) => {
    const [productIds, groups] = await Promise.all([listedProductIds(request.ctx), visibleGroups(request.ctx)]);
    const entries: SitemapEntry[] = [
      { path: '/' },
      ...CONTENT_PAGE_SLUGS.map((slug) => ({ path: `/${slug}` })),
      ...groups.map((group) => ({ path: `/product/cate/${group.id}`, lastModified: group.updatedAt.toISOString() })),
      ...productIds.map((product) => ({ path: `/product/${product.id}`, lastModified: product.updated_at })),
    ];
    reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=600');
    return sitemapXml(siteOriginOf(request), entries);
  });
}
