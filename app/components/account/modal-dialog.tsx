import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { CloseIcon } from '../ui/icons';
import { useT } from '~/lib/i18n';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

const useIsomorphicLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;

export type CloseReason = 'escape' | 'backdrop' | 'button';

/**
 * A modal dialog on the native <dialog> element (SPEC section 4's dialogs): `showModal`
 * puts it in the top layer above everything (SPEC's popup z-index base 2000 is the CSS
 * fallback) and makes the page behind it inert. On top of that it keeps Tab inside the
 * dialog (wrapping at both ends), closes on Escape and on a click on the backdrop only when
 * `dismissible`, and gives focus back to the element that had it when it opened.
 * `draggable` lets the pointer move the dialog by its title bar. With `heading`, the dialog
 * draws its own title row (the heading that labels it and a close button).
 */
export function ModalDialog({
  open,
  onClose,
  dismissible = true,
  heading,
  labelledBy,
  describedBy,
  className,
  draggable = false,
  children,
}: {
  open: boolean;
  onClose: (reason: CloseReason) => void;
  dismissible?: boolean;
  heading?: DialogHeading;
  /** The id of the element that names the dialog, when it has no `heading`. */
  labelledBy?: string;
  describedBy?: string;
  className?: string;
  draggable?: boolean;
  children: React.ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  const opener = useRef<HTMLElement | null>(null);
  const pressedOnBackdrop = useRef(false);
  const closedByUs = useRef(false);
  const [offset, setOffset] = useState({ x: 0, y: 0 });

  useIsomorphicLayoutEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
      setOffset({ x: 0, y: 0 });
      element.showModal();
      // React's autoFocus cannot reach an input that mounted while the dialog was closed.
      const preferred = Array.from(element.querySelectorAll<HTMLElement>('[data-autofocus]')).find(
        (item) => item.offsetParent !== null,
      );
      preferred?.focus();
    } else if (!open && element.open) {
      closedByUs.current = true;
      element.close();
    }
  }, [open]);

  // Unmounting while open (a navigation) still hands focus back.
  useEffect(() => () => restoreFocus(opener.current), []);

  const restoreFocus = (target: HTMLElement | null) => {
    if (target && target.isConnected) target.focus({ preventScroll: true });
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === 'Escape') {
      // Cancelling the key stops the browser's own close request, so a dialog that must stay stays.
      event.preventDefault();
      event.stopPropagation();
      if (dismissible) onClose('escape');
      return;
    }
    if (event.key !== 'Tab') return;
    const focusable = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
      (element) => element.offsetParent !== null || element === document.activeElement,
    );
    if (focusable.length === 0) return;
    const first = focusable[0]!;
    const last = focusable[focusable.length - 1]!;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || !event.currentTarget.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !event.currentTarget.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  };

  const startDrag = (event: React.PointerEvent<HTMLElement>) => {
    if (!draggable || event.button !== 0 || (event.target as HTMLElement).closest('button, a, input')) return;
    const handle = event.currentTarget;
    const start = { x: event.clientX - offset.x, y: event.clientY - offset.y };
    handle.setPointerCapture(event.pointerId);
    const move = (moveEvent: PointerEvent) => {
      const box = dialog.current?.getBoundingClientRect();
      const limitX = box ? (window.innerWidth + box.width) / 2 - 40 : Infinity;
      const limitY = box ? (window.innerHeight + box.height) / 2 - 40 : Infinity;
      setOffset({
        x: Math.max(-limitX, Math.min(limitX, moveEvent.clientX - start.x)),
        y: Math.max(-limitY, Math.min(limitY, moveEvent.clientY - start.y)),
      });
    };
    const stop = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', stop);
      handle.removeEventListener('pointercancel', stop);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', stop);
    handle.addEventListener('pointercancel', stop);
  };

  return (
    <dialog
      ref={dialog}
      className={`modal${className ? ` ${className}` : ''}`}
      aria-modal="true"
      aria-labelledby={heading ? headingId : labelledBy}
      aria-describedby={describedBy}
      style={offset.x || offset.y ? { translate: `${offset.x}px ${offset.y}px` } : undefined}
      onKeyDown={onKeyDown}
      onCancel={(event) => {
        event.preventDefault();
        if (dismissible) onClose('escape');
      }}
      onClose={() => {
        const ours = closedByUs.current;
        closedByUs.current = false;
        // The close event arrives a task later: the dialog may have been opened again meanwhile.
        if (dialog.current?.open) return;
        // The browser may close a dialog on its own (a repeated close request): keep state in step.
        if (!ours && open && !dismissible) {
          dialog.current?.showModal();
          return;
        }
        if (!ours && open) onClose('escape');
        restoreFocus(opener.current);
      }}
      onPointerDown={(event) => {
        pressedOnBackdrop.current = event.target === event.currentTarget;
      }}
      onClick={(event) => {
        // Only a press and release both on the backdrop closes (a text selection dragged out does not).
        if (dismissible && pressedOnBackdrop.current && event.target === event.currentTarget) onClose('backdrop');
        pressedOnBackdrop.current = false;
      }}
    >
      <div className="modal__panel">
        {draggable ? <DragSurface onPointerDown={startDrag} /> : null}
        {heading ? <ModalHeader id={headingId} {...heading} onClose={() => onClose('button')} /> : null}
        {children}
      </div>
    </dialog>
  );
}

/** An invisible strip over the dialog's title bar that moves the dialog with the pointer. */
function DragSurface({ onPointerDown }: { onPointerDown: (event: React.PointerEvent<HTMLElement>) => void }) {
  return <div className="modal__drag" aria-hidden="true" onPointerDown={onPointerDown} />;
}

interface DialogHeading {
  title: React.ReactNode;
  small?: boolean;
  /** What a screen reader hears for the close button; "Close" by default. */
  closeLabel?: string;
  /** The close button takes the focus when the dialog opens (a dialog with nothing to fill in). */
  focusClose?: boolean;
}

/** A dialog's title row: the heading that labels the dialog, and its close button. */
function ModalHeader({
  id,
  title,
  small = false,
  closeLabel,
  focusClose = false,
  onClose,
}: DialogHeading & { id: string; onClose: () => void }) {
  const t = useT();
  return (
    <div className="modal__header">
      <h2 className={small ? 'modal__title modal__title--small' : 'modal__title'} id={id}>
        {title}
      </h2>
      <button
        type="button"
        className="icon-button modal__close"
        onClick={onClose}
        data-autofocus={focusClose ? '' : undefined}
      >
        <CloseIcon size={20} />
        <span className="sr-only">{closeLabel ?? t('account.modal.close')}</span>
      </button>
    </div>
  );
}
