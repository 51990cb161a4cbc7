import { useEffect, useRef, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { AdminApiError } from '../lib/admin-api';
import type { PillTone } from '../lib/tones';
import { useConsoleT } from '../lib/console-context';

/** The console's small building blocks: page header, pills, empty states, skeletons, errors, confirmations. */

export function PageHeader({ title, actions, children }: { title: string; actions?: ReactNode; children?: ReactNode }) {
  return (
    <header className="page-head">
      <div className="page-head__text">
        <h1>{title}</h1>
        {children}
      </div>
      {actions ? <div className="page-head__actions">{actions}</div> : null}
    </header>
  );
}

/** A status as words in a tinted pill: the colour helps, the text says it. */
export function Pill({ tone = 'neutral', children }: { tone?: PillTone; children: ReactNode }) {
  return <span className={`pill pill--${tone}`}>{children}</span>;
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <svg viewBox="0 0 48 48" width="40" height="40" aria-hidden="true">
        <rect x="8" y="12" width="32" height="26" rx="4" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="M8 20h32M18 28h12" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <p className="empty-state__title">{title}</p>
      {children ? <div className="empty-state__body">{children}</div> : null}
    </div>
  );
}

export function SkeletonRows({ rows = 8 }: { rows?: number }) {
  return (
    <div className="skeleton-rows" aria-hidden="true">
      {Array.from({ length: rows }, (_, index) => (
        <div key={index} className="skeleton skeleton--row" />
      ))}
    </div>
  );
}

/** The server's localized message of a failed call, or a generic one. */
function errorText(error: unknown, fallback: string): string {
  if (error instanceof AdminApiError) return error.message;
  return fallback;
}

export function ErrorNotice({ error }: { error: unknown }) {
  const t = useConsoleT();
  if (!error) return null;
  return (
    <p className="notice notice--error" role="alert">
      {errorText(error, t('console.error.generic'))}
    </p>
  );
}

export function Notice({ children, tone = 'success' }: { children: ReactNode; tone?: 'success' | 'info' }) {
  return (
    <p className={`notice notice--${tone}`} role="status">
      {children}
    </p>
  );
}

/**
 * A destructive action's confirmation in a native <dialog> (Escape closes it, focus stays
 * inside). `children` may hold a field the member must fill (the typed email of an erase);
 * `ready` keeps the confirm button off until it is right.
 */
export function ConfirmDialog({
  open,
  title,
  confirmLabel,
  onConfirm,
  onClose,
  ready = true,
  busy = false,
  error,
  children,
}: {
  open: boolean;
  title: string;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  ready?: boolean;
  busy?: boolean;
  error?: unknown;
  children?: ReactNode;
}) {
  const t = useConsoleT();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="console-dialog" aria-labelledby="console-dialog-title" onClose={onClose}>
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          event.stopPropagation();
          if (ready && !busy) onConfirm();
        }}
      >
        <h2 id="console-dialog-title">{title}</h2>
        {children}
        <ErrorNotice error={error} />
        <div className="console-dialog__actions">
          <button type="button" className="button" onClick={onClose}>
            {t('console.action.cancel')}
          </button>
          <button type="submit" className="button button--danger" disabled={!ready || busy}>
            {confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/** A write to the API with its busy flag and its error kept for display. */
export function useAction<A extends unknown[], R>(run: (...args: A) => Promise<R>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const act = async (...args: A): Promise<R | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await run(...args);
    } catch (caught) {
      setError(caught);
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { act, busy, error, clearError: () => setError(null) };
}

/**
 * Replaces the current entry with `to` once rendered. (Not <Navigate>: a react-router export
 * only the console used would be kept in the vendor chunk every storefront page loads.)
 */
export function useRedirect(to: string | null): void {
  const navigate = useNavigate();
  useEffect(() => {
    if (to) void navigate(to, { replace: true });
  }, [navigate, to]);
}

/** A labelled text input whose value the form keeps in state: `Field` around an `<input>`. */
export function TextField({
  id,
  label,
  value,
  onValue,
  ...input
}: {
  id: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange'>) {
  return (
    <Field id={id} label={label}>
      <input id={id} value={value} onChange={(event) => onValue(event.target.value)} {...input} />
    </Field>
  );
}

/** A labelled form field: the input (or select) as its child, and the refusal under it when there is one. */
export function Field({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: string;
  /** Shown under the field and marks it invalid; `true` marks it without a text (a hint below says why). */
  error?: string | boolean;
  children: ReactNode;
}) {
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {typeof error === 'string' ? (
        <p className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
