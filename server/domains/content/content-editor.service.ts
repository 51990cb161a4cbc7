import { eq } from 'drizzle-orm';
import { contentPages } from '../../db/schema';
import type { ActingContext, AppContext } from '../../context';
import { NotFoundError } from '../../shared/errors';
import { recordAudit } from '../audit/audit.service';
import type { ContentPageBody, ContentPageEditorView, ContentPageSummary } from './content-editor.schemas';
import { retireContentPage } from './content-page-version';
import { CONTENT_PAGE_SLUGS, type ContentPageSlug } from './content.service';

type ContentPageRow = typeof contentPages.$inferSelect;

function editorView(row: ContentPageRow): ContentPageEditorView {
  return {
    slug: row.slug as ContentPageSlug,
    title: row.title,
    summary: row.summary,
    blocks: row.blocks,
    updated_at: row.updatedAt.toISOString(),
  };
}

/** `GET /v1/admin/content-pages`: the four navigation pages, in the navigation's order. */
export async function listContentPages(ctx: AppContext): Promise<ContentPageSummary[]> {
  const rows = await ctx.db.select().from(contentPages);
  return CONTENT_PAGE_SLUGS.flatMap((slug) => {
    const row = rows.find((candidate) => candidate.slug === slug);
    if (!row) return [];
    return [
      {
        slug,
        title: row.title,
        blocks: { en: row.blocks.en.length, 'zh-cn': row.blocks['zh-cn'].length },
        updated_at: row.updatedAt.toISOString(),
      },
    ];
  });
}

export async function contentPageForEditor(ctx: AppContext, slug: ContentPageSlug): Promise<ContentPageEditorView> {
  const [row] = await ctx.db.select().from(contentPages).where(eq(contentPages.slug, slug)).limit(1);
  if (!row) throw new NotFoundError();
  return editorView(row);
}

/**
 * Replaces a page's title, summary and blocks in both languages, with its audit event
 * (`content.updated`, before and after) in the same transaction; then retires that page's
 * cached copies in both languages and no other page.
 */
export async function saveContentPage(
  ctx: ActingContext,
  slug: ContentPageSlug,
  input: ContentPageBody,
): Promise<ContentPageEditorView> {
  const saved = await ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(contentPages).where(eq(contentPages.slug, slug)).for('update');
    if (!row) throw new NotFoundError();
    const [updated] = await tx
      .update(contentPages)
      .set({ title: input.title, summary: input.summary, blocks: input.blocks, updatedAt: new Date() })
      .where(eq(contentPages.slug, slug))
      .returning();
    await recordAudit(
      { ...ctx, db: tx },
      {
        action: 'content.updated',
        entityType: 'content_page',
        entityId: slug,
        before: { title: row.title, summary: row.summary, blocks: row.blocks },
        after: { title: input.title, summary: input.summary, blocks: input.blocks },
      },
    );
    return updated!;
  });
  await retireContentPage(ctx, slug);
  return editorView(saved);
}
