import { Link } from 'react-router';
import { isLocale, LOCALES } from '../../../i18n/locales';
import { htmlLang, useCurrentPath, useLocale, useT } from '~/lib/i18n';
import { switchLocalePath } from '~/lib/locale';

/** A locale's home is `/{locale}/`, with the slash, like every other link to it. */
function sameRootSlash(path: string): string {
  return path.replace(/^(\/[^/?#]+)(?=\?|$)/, (root) => (isLocale(root.slice(1)) ? `${root}/` : root));
}

/**
 * 中文 / English: plain links to the same page in the other language, so it works without JS.
 * They load a new document: the browser holds one language's messages (i18n/packs.ts).
 */
export function LanguageSwitch({ className = '' }: { className?: string }) {
  const t = useT();
  const locale = useLocale();
  const { pathname, search } = useCurrentPath();
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
            to={sameRootSlash(switchLocalePath(pathname, search, target))}
            lang={htmlLang(target)}
            hrefLang={htmlLang(target)}
            reloadDocument
          >
            {t(`shell.language.${target}`)}
          </Link>
        ),
      )}
    </div>
  );
}
