import { useEffect } from 'react';
import { Link } from 'react-router';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { LockIcon } from './account-icons';
import { useAccount } from './account-context';

/**
 * What a login-only page shows an anonymous visitor (SPEC section 2's route guard): a short
 * explanation in the page and the login modal on top, which cannot be dismissed by a click
 * outside or Escape (that would leave an empty page); its 'Back to the shop' link is the
 * way out. Leaving the page by any other navigation releases the modal.
 */
export function LoginGuard() {
  const t = useT();
  const locale = useLocale();
  const { openLogin, releaseGuard } = useAccount();

  useEffect(() => {
    openLogin({ guard: true });
    return releaseGuard;
  }, [openLogin, releaseGuard]);

  return (
    <section className="login-guard container" aria-labelledby="login-guard-title">
      <span className="login-guard__icon" aria-hidden="true">
        <LockIcon size={28} />
      </span>
      <h1 className="login-guard__title" id="login-guard-title">
        {t('account.guard.heading')}
      </h1>
      <p className="login-guard__text">{t('account.guard.text')}</p>
      <div className="login-guard__actions">
        <button type="button" className="button button--primary" onClick={() => openLogin({ guard: true })}>
          {t('account.guard.action')}
        </button>
        <Link className="button button--secondary" to={localePath(locale, '/')}>
          {t('shell.goHome')}
        </Link>
      </div>
    </section>
  );
}
