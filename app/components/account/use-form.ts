import { useCallback, useRef, useState } from 'react';
import type { MessageKey, Translate } from '../../../i18n';

/**
 * Client-side rules of SPEC section 5 for the account forms. Each rule returns a message
 * key (or a key with parameters) when the value is wrong. The server checks the same
 * things again; its field messages are shown beside the field too (`setServerError`).
 */
export type FieldError = MessageKey | [MessageKey, Record<string, string | number>];
export type Rule = (value: string) => FieldError | undefined;

export const EMAIL_MAX_LENGTH = 320;
/** The server's rule for new passwords (server/domains/customers/accounts.schemas.ts). */
export const PASSWORD_MIN_LENGTH = 8;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** SPEC section 5: 11 digits, 1 then 3-9. Numbers abroad start with + (the server checks them fully). */
export const MOBILE_PATTERN = /^1[3-9]\d{9}$/;
const INTERNATIONAL_MOBILE = /^\+[\d\s()-]{6,20}$/;

export const rules = {
  email: ((value) => {
    if (!value.trim()) return 'account.validation.emailRequired';
    if (value.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(value.trim())) return 'account.validation.emailInvalid';
    return undefined;
  }) satisfies Rule,
  code: ((value) => (value.trim() ? undefined : 'account.validation.codeRequired')) satisfies Rule,
  password: ((value) => {
    if (!value) return 'account.validation.passwordRequired';
    if (value.length < PASSWORD_MIN_LENGTH) return ['account.validation.passwordShort', { min: PASSWORD_MIN_LENGTH }];
    return undefined;
  }) satisfies Rule,
  /** Logging in checks only presence: old accounts may have shorter passwords. */
  existingPassword: ((value) => (value ? undefined : 'account.validation.passwordRequired')) satisfies Rule,
  username: ((value) => (value.trim() ? undefined : 'account.validation.usernameRequired')) satisfies Rule,
  mobile: ((value) =>
    MOBILE_PATTERN.test(value.trim()) || INTERNATIONAL_MOBILE.test(value.trim())
      ? undefined
      : 'account.validation.mobileInvalid') satisfies Rule,
};

export function messageOf(t: Translate, error: FieldError | string | undefined): string | undefined {
  if (!error) return undefined;
  if (Array.isArray(error)) return t(error[0], error[1]);
  return error.startsWith('account.') ? t(error as MessageKey) : error;
}

type Values<F extends string> = Record<F, string>;

/**
 * Values, errors and validation timing of one form: a field is checked when it loses
 * focus, re-checked on every change once it has shown an error, and every field is
 * checked on submit (focus moves to the first wrong one).
 */
export function useForm<F extends string>(fieldRules: Record<F, Rule | undefined>, initial: Values<F>) {
  const [values, setValues] = useState<Values<F>>(initial);
  const [errors, setErrors] = useState<Partial<Record<F, FieldError | string>>>({});
  // A field may be rendered twice (the email of both login tabs); focus goes to the visible one.
  const refs = useRef(new Map<F, Set<HTMLInputElement>>());
  const focus = (field: F) => {
    const elements = [...(refs.current.get(field) ?? [])];
    (elements.find((element) => element.isConnected && element.offsetParent !== null) ?? elements[0])?.focus();
  };

  const check = useCallback(
    (field: F, value: string) => {
      const error = fieldRules[field]?.(value);
      setErrors((current) => ({ ...current, [field]: error }));
      return error;
    },
    [fieldRules],
  );

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
  const validate = (fields: F[] = Object.keys(fieldRules) as F[]) => {
    let first: F | undefined;
    const next = { ...errors };
    for (const field of fields) {
      const error = fieldRules[field]?.(values[field]);
      next[field] = error;
      if (error && !first) first = field;
    }
    setErrors(next);
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

  return { values, setValues, errors, bind, validate, check, setServerError, reset };
}
