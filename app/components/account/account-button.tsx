import { lazy, Suspense, useState } from 'react';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { useHydrated } from '../catalog/use-hydrated';
import { UserIcon } from '../ui/icons';
import { useAccount, withAccountMessages } from './account-context';

export const ACCOUNT_PATH = '/my/account';

/** The account links outside the account pages; code and texts arrive on first open (docs/decisions/0110). */
export const AccountMenu = lazy(withAccountMessages(() => import('./account-menu')));

/**
 * The header's account control. Anonymous: a person icon that opens the login modal
 * (without JavaScript it is a link to My account, whose guard explains what to do).
 * Logged in: the avatar and name, a button that opens the account menu (without JavaScript,
 * a link to My account). Its accessible name starts with the name it shows (WCAG 2.5.3).
 * Only logged-in renders carry the name, and those are never cached (server/http/response-cache.ts).
 */
export function AccountButton() {
  const t = useT();
  const locale = useLocale();
  const hydrated = useHydrated();
  const { user, openLogin } = useAccount();
  const href = localePath(locale, ACCOUNT_PATH);
  const [menuOpen, setMenuOpen] = useState(false);

  if (user) {
    return (
      <div className="account-menu-anchor">
        <a
          href={href}
          className="account-button account-button--user"
          role={hydrated ? 'button' : undefined}
          aria-expanded={hydrated ? menuOpen : undefined}
          onClick={(event) => {
            event.preventDefault();
            setMenuOpen(!menuOpen);
          }}
        >
          <Avatar name={user.username} src={user.avatar} size={32} />
          <span className="account-button__name">{user.username}</span>
          <span className="sr-only"> {t('account.button.account')}</span>
        </a>
        {menuOpen ? (
          <Suspense fallback={null}>
            <AccountMenu placement="popover" onClose={setMenuOpen} />
          </Suspense>
        ) : null}
      </div>
    );
  }
  return (
    <a
      href={href}
      className="account-button"
      role={hydrated ? 'button' : undefined}
      aria-haspopup={hydrated ? 'dialog' : undefined}
      onClick={(event) => {
        event.preventDefault();
        openLogin();
      }}
    >
      <UserIcon size={22} />
      <span className="account-button__label">{t('account.button.login')}</span>
    </a>
  );
}

/** A round picture, or the name's first letter on the brand tint when there is none. */
export function Avatar({ name, src, size }: { name: string; src: string | null | undefined; size: number }) {
  const initial = Array.from(name.trim())[0]?.toUpperCase() ?? '?';
  return (
    <span
      className="avatar"
      style={{ width: size, height: size, fontSize: Math.round(size * 0.45) }}
      aria-hidden="true"
    >
      {src ? (
        <img src={avatarUrl(src, size)} alt="" width={size} height={size} loading="lazy" decoding="async" />
      ) : (
        initial
      )}
    </span>
  );
}

/** Own images and uploads get a small webp variant (server/domains/media/image-variants.ts); other URLs are used as they are. */
export function avatarUrl(src: string, size: number): string {
  return src.startsWith('/images/') || src.startsWith('/uploads/')
    ? `${src}?w=${Math.min(640, size * 2)}&format=webp&q=80`
    : src;
}
