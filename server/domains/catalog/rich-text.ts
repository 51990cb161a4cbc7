import sanitizeHtml from 'sanitize-html';

/**
 * The rich text a product description may hold (ADR 0160): paragraphs, headings, emphasis,
 * lists, quotes and links. Everything else is dropped on the server before it is stored:
 * scripts and styles with their content, event handlers, inline styles, frames, forms, and
 * links other than http(s) and mailto. Links leave the shop without handing it a referrer
 * window (`rel="noopener noreferrer nofollow"`).
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 'h2', 'h3', 'h4', 'ul', 'ol', 'li', 'blockquote', 'a'],
  allowedAttributes: { a: ['href', 'title', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow' }),
  },
};

/** The cleaned HTML; text typed without tags becomes paragraphs, so a stored description is always HTML. */
export function sanitizeRichText(html: string): string {
  const clean = sanitizeHtml(html, OPTIONS).trim();
  if (!clean || clean.startsWith('<')) return clean;
  return clean
    .split(/\n\s*\n/)
    .map((paragraph) => `<p>${paragraph.trim()}</p>`)
    .join('');
}
