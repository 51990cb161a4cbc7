import { createRequire } from 'node:module';
import type SanitizeHtml from 'sanitize-html';

/**
 * The rich text a product description may hold (ADR 0160): paragraphs, headings, emphasis,
 * lists, quotes and links. Everything else is dropped on the server before it is stored:
 * scripts and styles with their content, event handlers, inline styles, frames, forms, and
 * links other than http(s) and mailto. Links leave the shop without handing it a referrer
 * window (`rel="noopener noreferrer nofollow"`).
 */
function optionsOf(sanitizeHtml: typeof SanitizeHtml): SanitizeHtml.IOptions {
  return {
    allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 'h2', 'h3', 'h4', 'ul', 'ol', 'li', 'blockquote', 'a'],
    allowedAttributes: { a: ['href', 'title', 'rel'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    transformTags: {
      a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow' }),
    },
  };
}

let sanitizer: ((html: string) => string) | undefined;

/**
 * sanitize-html and its parser hold about 11 MB once loaded: they are required when the console
 * first saves rich text, not at every start of every server copy (issue 13's memory target).
 */
function sanitizerOf(): (html: string) => string {
  if (!sanitizer) {
    const sanitizeHtml = createRequire(import.meta.url)('sanitize-html') as typeof SanitizeHtml;
    const options = optionsOf(sanitizeHtml);
    sanitizer = (html) => sanitizeHtml(html, options);
  }
  return sanitizer;
}

/** The cleaned HTML; text typed without tags becomes paragraphs, so a stored description is always HTML. */
export function sanitizeRichText(html: string): string {
  const clean = sanitizerOf()(html).trim();
  if (!clean || clean.startsWith('<')) return clean;
  return clean
    .split(/\n\s*\n/)
    .map((paragraph) => `<p>${paragraph.trim()}</p>`)
    .join('');
}
