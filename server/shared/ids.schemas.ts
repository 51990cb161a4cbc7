import { z } from 'zod';
import { PG_INTEGER_MAX } from './ids';

/** A row id sent as a JSON number. */
export const rowId = z.number().int().min(1).max(PG_INTEGER_MAX);

/** A row id read from text (a path segment, a query parameter, a form field). */
export const rowIdFromText = z.coerce.number().int().min(1).max(PG_INTEGER_MAX);
