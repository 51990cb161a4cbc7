import { Link, useLocation } from 'react-router';
import { LOCALES } from '../../../i18n/locales';
import { htmlLang, useLocale, useT } from '~/lib/i18n';
import { switchLocalePath } from '~/lib/locale';

/** 中文 / English: plain links to the same page in the other language, so it works without JS. */
export function LanguageSwitch({ className = '' }: { className?: string }) {
  const t = useT();
  const locale = useLocale();
  const { pathname, search, hash } = useLocation();
  return (
    <div className={`lang-switch ${className}`} role="group" aria-label={t('shell.language')}>
      {LOCALES.map((target) =>
        target === locale ? (
          <span key={target} className="lang-switch__item" aria-current="true" lang={htmlLang(target)}>
            {t(`shell.language.${target}`)}
          </span>
        ) : (
          <Link
            key={target}
            className="lang-switch__item"
            to={switchLocalePath(pathname, search, target) + hash}
            lang={htmlLang(target)}
            hrefLang={htmlLang(target)}
          >
            {t(`shell.language.${target}`)}
          </Link>
        ),
      )}
    </div>
  );
}
