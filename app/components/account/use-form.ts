import { useRef, useState } from 'react';
import type { z } from 'zod';
import { describeIssue } from '../../../server/shared/issue-messages';
import { useLocale } from '~/lib/i18n';

type Values<F extends string> = Record<F, string>;

/**
 * Values, errors and validation timing of one form, checked with the API's own zod schema
 * (docs/decisions/0081-forms-validate-with-the-api-schemas.md), so a field shows before
 * submitting the sentence the API would answer. A field is checked when it loses focus,
 * re-checked on every change once it has shown an error, and every field is checked on
 * submit (focus moves to the first wrong one). Server messages go under their field too
 * (`setServerError`).
 */
export function useForm<S extends z.ZodType, F extends Extract<keyof z.input<S>, string>>(
  schema: S,
  initial: Values<F>,
) {
  const locale = useLocale();
  const [values, setValues] = useState<Values<F>>(initial);
  const [errors, setErrors] = useState<Partial<Record<F, string>>>({});
  // A field may be rendered twice (the email of both login tabs); focus goes to the visible one.
  const refs = useRef(new Map<F, Set<HTMLInputElement>>());
  const focus = (field: F) => {
    const elements = [...(refs.current.get(field) ?? [])];
    (elements.find((element) => element.isConnected && element.offsetParent !== null) ?? elements[0])?.focus();
  };

  /** The message of each of `fields` for these values (undefined where the field is right). */
  const messagesFor = (current: Values<F>, fields: readonly F[]) => {
    const result = schema.safeParse(current);
    const messages: Partial<Record<F, string>> = {};
    for (const field of fields) messages[field] = undefined;
    if (result.success) return messages;
    for (const issue of result.error.issues) {
      const field = issue.path[0] as F;
      if (fields.includes(field) && messages[field] === undefined)
        messages[field] = describeIssue(locale, issue, 'body');
    }
    return messages;
  };

  const check = (field: F, value: string) => {
    const message = messagesFor({ ...values, [field]: value }, [field])[field];
    setErrors((current) => ({ ...current, [field]: message }));
    return message;
  };

  const bind = (field: F) => ({
    name: field,
    value: values[field],
    ref: (element: HTMLInputElement | null) => {
      if (!element) return;
      const elements = refs.current.get(field) ?? new Set<HTMLInputElement>();
      for (const known of elements) if (!known.isConnected) elements.delete(known);
      refs.current.set(field, elements.add(element));
    },
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      const value = event.target.value;
      setValues((current) => ({ ...current, [field]: value }));
      if (errors[field]) check(field, value);
    },
    onBlur: (event: React.FocusEvent<HTMLInputElement>) => {
      // Leaving an untouched empty field (e.g. closing the dialog) is not yet a mistake.
      if (event.target.value || errors[field]) check(field, event.target.value);
    },
  });

  /** Checks the given fields (all by default); focuses the first wrong one and returns false if any is wrong. */
  const validate = (fields: readonly F[] = Object.keys(values) as F[]) => {
    const messages = messagesFor(values, fields);
    setErrors((current) => ({ ...current, ...messages }));
    const first = fields.find((field) => messages[field]);
    if (first) focus(first);
    return !first;
  };

  const setServerError = (field: F, message: string) => {
    setErrors((current) => ({ ...current, [field]: message }));
    focus(field);
  };

  const reset = () => {
    setValues(initial);
    setErrors({});
  };

  return { values, errors, bind, validate, setServerError, reset };
}
