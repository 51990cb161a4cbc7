import { z } from 'zod';
import { contentBlocksByLocale } from '../../shared/content-blocks';
import { localizedField } from '../site-settings/site-settings-editor.schemas';
import { CONTENT_PAGE_SLUGS } from './content.service';

export const contentPageParams = z.object({ slug: z.enum(CONTENT_PAGE_SLUGS) });

/** `PUT /v1/admin/content-pages/:slug`: the whole page, both languages side by side. */
export const contentPageBody = z.strictObject({
  title: localizedField(80, 1),
  summary: localizedField(300),
  blocks: contentBlocksByLocale,
});
export type ContentPageBody = z.infer<typeof contentPageBody>;

/** One page as the editor reads it. */
export const contentPageEditorView = contentPageBody.extend({
  slug: z.enum(CONTENT_PAGE_SLUGS),
  updated_at: z.string(),
});
export type ContentPageEditorView = z.infer<typeof contentPageEditorView>;

/** `GET /v1/admin/content-pages`: the four pages with how many blocks each language has. */
export const contentPageSummary = z.object({
  slug: z.enum(CONTENT_PAGE_SLUGS),
  title: z.object({ en: z.string(), 'zh-cn': z.string() }),
  blocks: z.object({ en: z.number().int(), 'zh-cn': z.number().int() }),
  updated_at: z.string(),
});
export type ContentPageSummary = z.infer<typeof contentPageSummary>;
