import { lazy, Suspense, useId, useRef, useState } from 'react';
import { useT } from '~/lib/i18n';
import { MenuIcon } from '../ui/icons';

const MenuDrawer = lazy(() => import('./menu-drawer'));

/**
 * The phone navigation: a button that opens a modal drawer (./menu-drawer.tsx). Every page
 * carries the button; the drawer's code arrives with the first tap, since most visits never
 * open it (docs/decisions/0033-javascript-budget.md).
 */
export function MobileMenu() {
  const t = useT();
  const drawerId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const [mounted, setMounted] = useState(false);
  const [open, setOpen] = useState(false);

  return (
    <>
      <button
        ref={button}
        type="button"
        className="icon-button menu-button"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={mounted ? drawerId : undefined}
        onClick={() => {
          setMounted(true);
          setOpen(true);
        }}
      >
        <MenuIcon size={22} />
        <span className="sr-only">{t('shell.openMenu')}</span>
      </button>
      {mounted ? (
        <Suspense fallback={null}>
          <MenuDrawer
            id={drawerId}
            open={open}
            onClose={() => {
              setOpen(false);
              if (document.activeElement === document.body) button.current?.focus();
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
