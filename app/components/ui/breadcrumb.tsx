import { Link } from 'react-router';
import { localePath, useLocale, useT } from '~/lib/i18n';

export interface Crumb {
  name: string;
  href: string;
}

/** The breadcrumb trail: Home, the crumbs between, then the current page (not a link). */
export function Breadcrumb({
  current,
  trail = [],
  className,
}: {
  current: string;
  trail?: Crumb[];
  className?: string;
}) {
  const t = useT();
  const locale = useLocale();
  return (
    <nav className={className} aria-label={t('shell.breadcrumb')}>
      <ol className="breadcrumb" role="list">
        <li>
          <Link to={localePath(locale, '/')}>{t('shell.home')}</Link>
        </li>
        {trail.map((crumb) => (
          <li key={crumb.href}>
            <Link to={crumb.href}>{crumb.name}</Link>
          </li>
        ))}
        <li aria-current="page">{current}</li>
      </ol>
    </nav>
  );
}
