import { data } from 'react-router';
import type { z } from 'zod';
import { translate, type Locale } from '../../i18n';
import { isRefusal, type AppError } from '../../server/shared/errors';
import { describeIssue } from '../../server/shared/issue-messages';

/**
 * What a checkout page action answers. Expected refusals (an AppError: out of stock, a
 * wrong coupon, an order that is no longer payable) become a message in the page's language
 * and, for form input, one message per field; anything else is a real failure and is thrown
 * to the route's error boundary.
 */
export type ActionResult<T = null> =
  { ok: true; data: T; message?: string } | { ok: false; error: string; fields?: Record<string, string> };

/**
 * An expected refusal thrown by a service, or null. The services reach loaders through the
 * load context from the server build, while this page bundle has its own copy of
 * server/shared/errors, so `instanceof AppError` is never true here: refusals are
 * recognized by their shape (a message key and a kind that is the visitor's to act on).
 */
export function refusalOf(error: unknown): AppError | null {
  if (typeof error !== 'object' || error === null) return null;
  const candidate = error as Partial<AppError>;
  return typeof candidate.messageKey === 'string' && typeof candidate.kind === 'string' && isRefusal(candidate.kind)
    ? (error as AppError)
    : null;
}

/** The refusal's sentence in the page's language. */
export function refusalText(locale: Locale, refusal: AppError): string {
  return translate(locale, refusal.messageKey, refusal.params);
}

export async function runAction<T>(locale: Locale, work: () => Promise<T>, message?: string): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await work(), message };
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal) return { ok: false, error: refusalText(locale, refusal) };
    throw error;
  }
}

/** Validates a posted form with the API's own schema; field messages are the API's sentences. */
export function parseForm<S extends z.ZodType>(
  locale: Locale,
  schema: S,
  input: unknown,
): { ok: true; data: z.infer<S> } | { ok: false; error: string; fields: Record<string, string> } {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, data: result.data };
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const name = String(issue.path[0] ?? '');
    fields[name] ??= describeIssue(locale, issue, 'body');
  }
  return { ok: false, error: Object.values(fields)[0] ?? translate(locale, 'error.badRequest'), fields };
}

/**
 * The posted form. A body that is not one (JSON, text, a broken multipart body) is the
 * client's mistake: the error page says so with a 400, where reading it used to throw a 500.
 */
export async function readForm(request: Request, locale: Locale): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw data(translate(locale, 'error.malformedForm'), { status: 400 });
  }
}

/** A form's text fields as an object, blanks dropped (the schemas treat them as absent). */
export function formFields(form: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of form) if (typeof value === 'string' && value.trim() !== '') fields[key] = value;
  return fields;
}
