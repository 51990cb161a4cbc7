import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { useT } from '~/lib/i18n';
import { CloseIcon } from '../ui/icons';

/** SPEC section 9: toasts last 3000 ms, sit 16 px from the edge, and the same text is grouped. */
export const TOAST_DURATION_MS = 3000;
const FLASH_KEY = 'shop.flash-toasts';

export type ToastKind = 'success' | 'error' | 'info';
interface ToastItem {
  id: number;
  kind: ToastKind;
  text: string;
  count: number;
}

interface ToastApi {
  show(text: string, kind?: ToastKind): void;
  /** Keeps a toast for the next page load (shown after a reload or a full navigation). */
  flash(text: string, kind?: ToastKind): void;
}

const ToastContext = createContext<ToastApi>({ show: () => {}, flash: () => {} });

export function useToast(): ToastApi {
  return useContext(ToastContext);
}

/**
 * The toast stack. It is a manual popover so it renders in the top layer, above an open
 * modal dialog (a dialog's error toast must not hide behind its backdrop); each new toast
 * re-shows the popover so it stays topmost. A polite live region reads the texts out.
 */
export function ToastProvider({ children }: { children: React.ReactNode }) {
  const t = useT();
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const region = useRef<HTMLDivElement>(null);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    setToasts((current) => current.filter((toast) => toast.id !== id));
  }, []);

  const schedule = useCallback(
    (id: number) => {
      clearTimeout(timers.current.get(id));
      timers.current.set(
        id,
        setTimeout(() => dismiss(id), TOAST_DURATION_MS),
      );
    },
    [dismiss],
  );

  const show = useCallback(
    (text: string, kind: ToastKind = 'info') => {
      setToasts((current) => {
        const same = current.find((toast) => toast.text === text && toast.kind === kind);
        if (same) {
          schedule(same.id);
          return current.map((toast) => (toast === same ? { ...toast, count: toast.count + 1 } : toast));
        }
        const id = nextId.current++;
        schedule(id);
        return [...current, { id, kind, text, count: 1 }];
      });
    },
    [schedule],
  );

  const flash = useCallback((text: string, kind: ToastKind = 'info') => {
    try {
      const stored = JSON.parse(sessionStorage.getItem(FLASH_KEY) ?? '[]') as Array<{ text: string; kind: ToastKind }>;
      sessionStorage.setItem(FLASH_KEY, JSON.stringify([...stored, { text, kind }]));
    } catch {
      // Storage may be unavailable (private mode); the toast is simply not carried over.
    }
  }, []);

  useEffect(() => {
    try {
      const stored = JSON.parse(sessionStorage.getItem(FLASH_KEY) ?? '[]') as Array<{ text: string; kind: ToastKind }>;
      sessionStorage.removeItem(FLASH_KEY);
      for (const toast of stored) show(toast.text, toast.kind);
    } catch {
      // Nothing stored, or storage unavailable.
    }
    const pending = timers.current;
    return () => pending.forEach((timer) => clearTimeout(timer));
  }, [show]);

  useEffect(() => {
    const element = region.current;
    if (!element || typeof element.showPopover !== 'function') return;
    if (element.matches(':popover-open')) element.hidePopover();
    if (toasts.length) element.showPopover();
  }, [toasts]);

  const api = useMemo(() => ({ show, flash }), [show, flash]);
  return (
    <ToastContext.Provider value={api}>
      {children}
      <div ref={region} className="toasts" popover="manual" aria-label={t('account.toasts')}>
        <ol className="toasts__list" aria-live="polite" aria-relevant="additions text">
          {toasts.map((toast) => (
            <li
              key={toast.id}
              className={`toast toast--${toast.kind}`}
              role={toast.kind === 'error' ? 'alert' : 'status'}
            >
              <span className="toast__dot" aria-hidden="true" />
              <span className="toast__text">{toast.text}</span>
              {toast.count > 1 ? (
                <span className="toast__count" aria-hidden="true">
                  {toast.count}
                </span>
              ) : null}
              <button type="button" className="toast__close" onClick={() => dismiss(toast.id)}>
                <CloseIcon size={16} />
                <span className="sr-only">{t('account.toast.dismiss')}</span>
              </button>
            </li>
          ))}
        </ol>
      </div>
    </ToastContext.Provider>
  );
}
