import { eq } from 'drizzle-orm';
import { pickText, type Locale } from '../../../i18n/locales';
import { contentPages } from '../../db/schema';
import type { ContentBlock } from '../../shared/content-blocks';
import type { AppContext } from '../../context';

export const CONTENT_PAGE_SLUGS = ['videos', 'our-story', 'faq', 'contact-us'] as const;
export type ContentPageSlug = (typeof CONTENT_PAGE_SLUGS)[number];

export interface ContentPageView {
  slug: string;
  title: string;
  summary: string;
  blocks: ContentBlock[];
  updatedAt: string;
}

export async function getContentPage(ctx: AppContext, slug: string, locale: Locale): Promise<ContentPageView | null> {
  const [page] = await ctx.db.select().from(contentPages).where(eq(contentPages.slug, slug)).limit(1);
  if (!page) return null;
  return {
    slug: page.slug,
    title: pickText(page.title, locale),
    summary: pickText(page.summary, locale),
    blocks: page.blocks[locale] ?? page.blocks.en,
    updatedAt: page.updatedAt.toISOString(),
  };
}
