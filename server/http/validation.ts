import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import type { Issue } from '../shared/issue-messages';

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
