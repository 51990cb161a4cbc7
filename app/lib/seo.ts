import type { MetaDescriptor } from 'react-router';
import { LOCALES, type Locale } from '../../i18n/locales';

interface RootSeo {
  title: string;
  keyword: string;
  desc: string;
}

interface MatchLike {
  id: string;
  data?: unknown;
  loaderData?: unknown;
}

interface RootMeta {
  seo?: RootSeo;
  origin?: string;
  locale?: Locale;
  site?: { name?: string; favicon?: string };
}

function rootData(matches: readonly (MatchLike | undefined)[]): RootMeta | undefined {
  const root = matches.find((match) => match?.id === 'root');
  return (root?.loaderData ?? root?.data) as RootMeta | undefined;
}

export interface PageSeo {
  title?: string;
  description?: string;
  /** The page's path without the locale ('/product/12'); gives canonical and hreflang links. */
  path?: string;
  /** An absolute or root-relative image for link previews. */
  image?: string;
  type?: 'website' | 'product' | 'article';
  /** Structured data objects, each rendered as one JSON-LD script. */
  jsonLd?: object[];
  noindex?: boolean;
}

export function absoluteUrl(origin: string | undefined, path: string): string {
  if (/^https?:\/\//.test(path)) return path;
  return `${origin ?? ''}${path}`;
}

/**
 * Every page's head: its own title (followed by the shop's) and description, falling back
 * to the site's SEO settings, the site keywords (SPEC section 7), and, when the page says
 * where it lives, the canonical URL, hreflang alternates for both locales, Open Graph tags
 * and JSON-LD.
 */
export function pageMeta(matches: readonly (MatchLike | undefined)[], page: PageSeo = {}): MetaDescriptor[] {
  const root = rootData(matches);
  const seo = root?.seo;
  const suffix = root?.site?.name || seo?.title || '';
  const title = page.title ? (suffix ? `${page.title} | ${suffix}` : page.title) : (seo?.title ?? '');
  const description = page.description || seo?.desc || '';
  const tags: MetaDescriptor[] = [
    { title },
    { name: 'description', content: description },
    { name: 'keywords', content: seo?.keyword ?? '' },
    { property: 'og:title', content: page.title ?? title },
    { property: 'og:description', content: description },
    { property: 'og:type', content: page.type ?? 'website' },
    { name: 'twitter:card', content: page.image ? 'summary_large_image' : 'summary' },
  ];
  if (root?.site?.name) tags.push({ property: 'og:site_name', content: root.site.name });
  if (page.path !== undefined && root?.locale) {
    const href = (locale: Locale) => absoluteUrl(root.origin, `/${locale}${page.path === '/' ? '' : page.path}`);
    tags.push({ tagName: 'link', rel: 'canonical', href: href(root.locale) });
    for (const locale of LOCALES) {
      tags.push({
        tagName: 'link',
        rel: 'alternate',
        hrefLang: locale === 'zh-cn' ? 'zh-Hans' : 'en',
        href: href(locale),
      });
    }
    tags.push({ tagName: 'link', rel: 'alternate', hrefLang: 'x-default', href: href('zh-cn') });
    tags.push({ property: 'og:url', content: href(root.locale) });
    tags.push({ property: 'og:locale', content: root.locale === 'zh-cn' ? 'zh_CN' : 'en_US' });
  }
  const image = page.image ?? root?.site?.favicon;
  if (image) tags.push({ property: 'og:image', content: absoluteUrl(root?.origin, image) });
  if (page.noindex) tags.push({ name: 'robots', content: 'noindex' });
  // Structured data is for crawlers, which read the server's HTML; the browser build leaves it
  // out (React 19 hydration passes over the extra tags in <head>), so its builders stay out of
  // the page scripts (docs/decisions/0033-javascript-budget.md).
  if (import.meta.env.SSR) for (const data of page.jsonLd ?? []) tags.push({ 'script:ld+json': data });
  return tags;
}
