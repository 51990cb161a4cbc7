import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { hasMessage, translate, type MessageKey, type Locale } from '../../i18n';

type Issue = z.core.$ZodIssue;

/** A schema rejected part of a request; the error handler turns the first issue into a message. */
export class RequestValidationError extends Error {
  readonly statusCode = 400;
  readonly code = 'FST_ERR_VALIDATION';
  constructor(
    readonly issues: Issue[],
    readonly part: string,
  ) {
    super(`invalid ${part}`);
  }
}

/** Validates with zod and keeps the raw issues, so messages can be localized later. */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const result = schema.safeParse(data, { reportInput: true });
    if (result.success) return { value: result.data };
    return { error: new RequestValidationError(result.error.issues, httpPart ?? 'body') };
  };

function fieldLabel(locale: Locale, issue: Issue, part: string): string {
  const name = [...issue.path].reverse().find((segment) => typeof segment === 'string');
  if (name === undefined) return translate(locale, part === 'body' ? 'field.body' : 'field.body');
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

/** One sentence in the request's language that names the field and what is wrong with it. */
export function describeIssue(locale: Locale, issue: Issue, part: string): string {
  const field = fieldLabel(locale, issue, part);
  if (hasMessage(issue.message)) return translate(locale, issue.message, { field });
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
