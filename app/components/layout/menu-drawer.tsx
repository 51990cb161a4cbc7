import { Suspense, useEffect, useId, useRef } from 'react';
import { useLocation } from 'react-router';
import { useT } from '~/lib/i18n';
import { AccountMenu } from '../account/account-button';
import { useAccount } from '../account/account-context';
import { CloseIcon, UserIcon } from '../ui/icons';
import { CurrencyPicker } from '../catalog/currency-picker';
import { ColorModeSwitch } from './color-mode-switch';
import { LanguageSwitch } from './language-switch';
import { MainNav } from './navigation';

/**
 * The phone menu's drawer, opened by the button in ./mobile-menu.tsx. The native modal dialog
 * makes the page behind it inert, moves focus in, closes on Escape and gives focus back to
 * the button; a tap on the backdrop or any navigation closes it too. Below the navigation: the
 * account's links (orders by status with counts, addresses, profile, log out), or Log in.
 */
export default function MenuDrawer({ id, open, onClose }: { id: string; open: boolean; onClose: () => void }) {
  const t = useT();
  const { user, openLogin } = useAccount();
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const { pathname, search } = useLocation();
  const shownAt = useRef({ pathname, search });

  useEffect(() => {
    const element = dialog.current;
    if (open && element && !element.open) {
      shownAt.current = { pathname, search };
      element.showModal();
    }
  }, [open, pathname, search]);

  useEffect(() => {
    if (shownAt.current.pathname !== pathname || shownAt.current.search !== search) dialog.current?.close();
  }, [pathname, search]);

  useEffect(() => {
    // Widening the window past the phone layout hides the drawer, so close it too.
    const wide = window.matchMedia('(min-width: 960px)');
    const onChange = () => wide.matches && dialog.current?.close();
    wide.addEventListener('change', onChange);
    return () => wide.removeEventListener('change', onChange);
  }, []);

  return (
    <dialog
      ref={dialog}
      id={id}
      className="drawer"
      aria-labelledby={titleId}
      onClose={onClose}
      onClick={(event) => {
        if (event.target === event.currentTarget) event.currentTarget.close();
      }}
    >
      <div className="drawer__panel">
        <div className="drawer__header">
          <h2 id={titleId} className="drawer__title">
            {t('shell.menu')}
          </h2>
          <button type="button" className="icon-button" autoFocus onClick={() => dialog.current?.close()}>
            <CloseIcon size={22} />
            <span className="sr-only">{t('shell.closeMenu')}</span>
          </button>
        </div>
        {open ? <MainNav variant="drawer" /> : null}
        {!open ? null : user ? (
          <Suspense fallback={null}>
            <AccountMenu placement="drawer" />
          </Suspense>
        ) : (
          <button
            type="button"
            className="button button--secondary drawer__login"
            onClick={() => {
              dialog.current?.close();
              openLogin();
            }}
          >
            <UserIcon size={20} />
            {t('account.button.login')}
          </button>
        )}
        <div className="drawer__prefs">
          <p className="drawer__label">{t('shell.language')}</p>
          <LanguageSwitch className="lang-switch--large" />
          <p className="drawer__label">{t('shell.colorMode')}</p>
          <ColorModeSwitch showLabels className="segmented--large" />
          <CurrencyPicker variant="drawer" />
        </div>
      </div>
    </dialog>
  );
}
