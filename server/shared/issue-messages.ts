import type { z } from 'zod';
import { hasMessage, translate, type Locale, type MessageKey } from '../../i18n';

/**
 * How a refused input is described to a person, in their language: one rule for the API's
 * 400 answers (server/http/error-handler.ts) and the storefront's form and query messages, in
 * the browser too, so a form shows before submitting exactly the sentence the API would answer.
 */
export type Issue = z.core.$ZodIssue;

/** What to call the input when an issue names no field: the part of the request it was read from. */
const PART_LABELS: Record<string, MessageKey> = {
  body: 'field.body',
  querystring: 'field.querystring',
  params: 'field.params',
  headers: 'field.headers',
};

function fieldLabel(locale: Locale, issue: Issue, part: string): string {
  const name = [...issue.path].reverse().find((segment) => typeof segment === 'string');
  if (name === undefined) return translate(locale, PART_LABELS[part] ?? 'field.body');
  const key = `field.${name}`;
  return hasMessage(key) ? translate(locale, key) : name;
}

const EXPECTED_TYPE_KEYS: Record<string, MessageKey> = {
  string: 'type.string',
  number: 'type.number',
  int: 'type.number',
  boolean: 'type.boolean',
  object: 'type.object',
  array: 'type.array',
};

/**
 * One sentence in the request's language that names the field and what is wrong with it;
 * `part` is where the input came from (body, querystring, params, headers).
 */
export function describeIssue(locale: Locale, issue: Issue, part: string): string {
  const field = fieldLabel(locale, issue, part);
  // A rule of ours may name what it expected (`params`: a postal code's digits and example).
  if (hasMessage(issue.message))
    return translate(locale, issue.message, { ...(issue.code === 'custom' ? issue.params : undefined), field });
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined || issue.input === null) return translate(locale, 'validation.required', { field });
      if (issue.expected === 'int') return translate(locale, 'validation.integer', { field });
      const expected = EXPECTED_TYPE_KEYS[issue.expected];
      return translate(locale, 'validation.invalidType', {
        field,
        expected: expected ? translate(locale, expected) : issue.expected,
      });
    }
    case 'too_small':
      if (issue.origin === 'string') {
        return Number(issue.minimum) <= 1
          ? translate(locale, 'validation.notEmpty', { field })
          : translate(locale, 'validation.tooShort', { field, min: Number(issue.minimum) });
      }
      return translate(locale, 'validation.tooSmall', { field, min: Number(issue.minimum) });
    case 'too_big':
      return issue.origin === 'string'
        ? translate(locale, 'validation.tooLong', { field, max: Number(issue.maximum) })
        : translate(locale, 'validation.tooBig', { field, max: Number(issue.maximum) });
    case 'invalid_value':
      return translate(locale, 'validation.oneOf', { field, options: issue.values.map(String).join(', ') });
    case 'invalid_format':
      return issue.format === 'email'
        ? translate(locale, 'validation.invalidEmail')
        : translate(locale, 'validation.invalidFormat', { field });
    case 'unrecognized_keys':
      return translate(locale, 'validation.unknownField', { field: issue.keys.join(', ') });
    default:
      return translate(locale, 'validation.invalidFormat', { field });
  }
}
