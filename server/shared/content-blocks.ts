import { z } from 'zod';

/**
 * The blocks a content page's body is made of: the `content_pages.blocks` column, the seed,
 * the content service and the storefront's renderer all use this one declaration (a zod
 * schema, so an API answer or an editor form can validate with it when they come).
 */
export const contentBlock = z.discriminatedUnion('type', [
  z.object({ type: z.literal('heading'), text: z.string() }),
  z.object({ type: z.literal('paragraph'), text: z.string() }),
  z.object({ type: z.literal('list'), items: z.array(z.string()) }),
  z.object({ type: z.literal('qa'), question: z.string(), answer: z.string() }),
  z.object({
    type: z.literal('video'),
    title: z.string(),
    poster: z.string(),
    src: z.string().optional(),
    duration: z.string().optional(),
  }),
]);
export type ContentBlock = z.infer<typeof contentBlock>;
