import { z } from 'zod';

/**
 * The one rule for text a person types (names, addresses, notes, codes, search words):
 * no control characters and no broken UTF-16. PostgreSQL cannot store NUL at all (it used to
 * answer 500), a line break in a one-line field forges lines in mails and logs, and a lone
 * surrogate becomes U+FFFD on the way to the database, silently changing what was typed.
 *
 * Refused everywhere: C0 controls (U+0000-U+001F), DEL (U+007F), C1 controls (U+0080-U+009F)
 * and unpaired surrogates. A multi-line field keeps tab, line feed and CR LF.
 * docs/decisions/0070-one-rule-for-typed-text.md
 */
const LONE_SURROGATE = '[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]';
const SINGLE_LINE_REFUSED = new RegExp(`[\\u0000-\\u001F\\u007F-\\u009F]|${LONE_SURROGATE}`);
const MULTI_LINE_REFUSED = new RegExp(
  `[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]|\\r(?!\\n)|${LONE_SURROGATE}`,
);

/** The message of every refusal under this rule; the field's name fills `{field}`. */
export const CONTROL_CHARACTERS_MESSAGE = 'validation.controlCharacters';

export function isSingleLineText(value: string): boolean {
  return !SINGLE_LINE_REFUSED.test(value);
}

export function isMultiLineText(value: string): boolean {
  return !MULTI_LINE_REFUSED.test(value);
}

/** What may be shown of refused text (echoing a search word): the refused characters left out. */
export function printableText(value: string): string {
  return value.replace(new RegExp(MULTI_LINE_REFUSED.source, 'g'), '').replace(/[\t\r\n]+/g, ' ');
}

/** The rule as a zod check, for string schemas that already have a shape of their own (a regex, a URL rule). */
export const singleLine = /* @__PURE__ */ z.refine<string>(isSingleLineText, CONTROL_CHARACTERS_MESSAGE);
export const multiLine = /* @__PURE__ */ z.refine<string>(isMultiLineText, CONTROL_CHARACTERS_MESSAGE);

/**
 * `message` answers a missing value (or one that is not text); a value that is too long or
 * holds control characters keeps its own message, which names the field and the rule.
 */
function whenNotText(message: string | undefined) {
  return message
    ? { error: (issue: { code?: string }) => (issue.code === 'invalid_type' ? message : undefined) }
    : undefined;
}

/** One line of typed text, trimmed, at most `max` characters (UTF-16 units, as the columns count them). */
export function singleLineText(max: number, message?: string) {
  return z.string(whenNotText(message)).trim().max(max).check(singleLine);
}

/** Several lines of typed text (order notes), trimmed, at most `max` characters. */
export function multiLineText(max: number, message?: string) {
  return z.string(whenNotText(message)).trim().max(max).check(multiLine);
}
