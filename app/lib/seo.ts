import type { MetaDescriptor } from 'react-router';

export interface RootSeo {
  title: string;
  keyword: string;
  desc: string;
}

interface MatchLike {
  id: string;
  data?: unknown;
  loaderData?: unknown;
}

export function rootSeo(matches: readonly (MatchLike | undefined)[]): RootSeo | undefined {
  const root = matches.find((match) => match?.id === 'root');
  const data = (root?.loaderData ?? root?.data) as { seo?: RootSeo } | undefined;
  return data?.seo;
}

/**
 * Every page's head: its own title (followed by the shop's) and description, falling back
 * to the site's SEO settings, plus the site keywords (SPEC section 7).
 */
export function pageMeta(
  matches: readonly (MatchLike | undefined)[],
  page: { title?: string; description?: string } = {},
): MetaDescriptor[] {
  const seo = rootSeo(matches);
  const title = page.title ? `${page.title} | ${seo?.title ?? ''}`.replace(/ \| $/, '') : (seo?.title ?? '');
  return [
    { title },
    { name: 'description', content: page.description || seo?.desc || '' },
    { name: 'keywords', content: seo?.keyword ?? '' },
    { property: 'og:title', content: title },
    { property: 'og:description', content: page.description || seo?.desc || '' },
  ];
}
