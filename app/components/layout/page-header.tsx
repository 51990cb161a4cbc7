import { Link } from 'react-router';
import { localePath, useLocale, useT } from '~/lib/i18n';

/** A page's title band with a breadcrumb back to the shop. */
export function PageHeader({ title, lead }: { title: string; lead?: string }) {
  const t = useT();
  const locale = useLocale();
  return (
    <header className="page-header">
      <div className="container">
        <nav aria-label={t('shell.breadcrumb')}>
          <ol className="breadcrumb" role="list">
            <li>
              <Link to={localePath(locale, '/')}>{t('shell.home')}</Link>
            </li>
            <li aria-current="page">{title}</li>
          </ol>
        </nav>
        <h1 className="page-header__title">{title}</h1>
        {lead ? <p className="page-header__lead">{lead}</p> : null}
      </div>
    </header>
  );
}
