import type { MessageKey } from '../../../i18n';
import { ApiError, NetworkError } from '~/lib/api-client';
import { useT } from '~/lib/i18n';
import { useAccount } from './account-context';

/**
 * Shows a failed call: a server message about one of the form's fields goes under that
 * field (the envelope's `data.field`, or the field's name in a validation message), any
 * other message is a toast (SPEC section 8).
 */
export function useFailureHandler<F extends string>(
  setServerError: (field: F, message: string) => void,
  fields: F[],
  labels?: Partial<Record<F, MessageKey>>,
) {
  const t = useT();
  const { reportError } = useAccount();
  return (error: unknown) => {
    if (error instanceof ApiError && !error.sessionLost) {
      const field = fieldOf(error, fields, (name) => t((labels?.[name] ?? `account.field.${name}`) as MessageKey));
      if (field) {
        setServerError(field, error.message);
        return;
      }
    }
    if (error instanceof ApiError || error instanceof NetworkError) reportError(error);
    else throw error;
  };
}

function fieldOf<F extends string>(error: ApiError, fields: F[], label: (field: F) => string): F | undefined {
  const data = error.data as { field?: unknown } | null;
  if (data && typeof data === 'object' && fields.includes(data.field as F)) return data.field as F;
  if (error.code !== 400 && error.code !== 409 && error.code !== 422) return undefined;
  // The field named last wins: 'Incorrect email or password' belongs under the password.
  const message = error.message.toLowerCase();
  let best: { field: F; at: number } | undefined;
  for (const field of fields) {
    const at = message.lastIndexOf(label(field).toLowerCase());
    if (at >= 0 && (!best || at > best.at)) best = { field, at };
  }
  return best?.field;
}
