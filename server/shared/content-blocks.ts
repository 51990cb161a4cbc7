import { z } from 'zod';
import { multiLineText, singleLineText } from './text';

/**
 * Content blocks are plain text: the storefront renders them as text (React escapes it), so
 * nothing typed can become markup. A tag is refused rather than shown, so nobody believes it
 * works (ADR 0171).
 */
const MARKUP = /<\s*[a-z!/?]/i;
const noMarkup = (text: string) => !MARKUP.test(text);

const line = (max: number) => singleLineText(max).min(1).refine(noMarkup, 'validation.markup');
const prose = (max: number) => multiLineText(max).min(1).refine(noMarkup, 'validation.markup');
/** A file the shop serves (`/images/...`, `/brand/...`) or an https address; never `javascript:` or `data:`. */
export const mediaAddress = singleLineText(2048).regex(
  /^(\/(?!\/)[\w\-./%]*|https:\/\/[^\s"'<>]+)$/,
  'validation.imageAddress',
);

/**
 * The blocks a content page's body is made of: the `content_pages.blocks` column, the seed,
 * the content service, the console's editor and the storefront's renderer all use this one
 * declaration.
 */
export const contentBlock = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('heading'), text: line(200) }),
  z.strictObject({ type: z.literal('paragraph'), text: prose(5_000) }),
  z.strictObject({ type: z.literal('list'), items: z.array(line(500)).min(1).max(50) }),
  z.strictObject({ type: z.literal('qa'), question: line(300), answer: prose(5_000) }),
  z.strictObject({
    type: z.literal('video'),
    title: line(200),
    poster: mediaAddress.min(1),
    src: mediaAddress.optional(),
    duration: singleLineText(20).optional(),
  }),
]);
export type ContentBlock = z.infer<typeof contentBlock>;

/** A page's body in both languages; at most 100 blocks each. */
export const contentBlocksByLocale = z.strictObject({
  en: z.array(contentBlock).max(100),
  'zh-cn': z.array(contentBlock).max(100),
});
