import { Link, useSearchParams } from 'react-router';
import { useConsoleT } from '../lib/console-context';

/** Previous and next links that keep the list's other search parameters. */
export function Pager({ page, pages, hasMore }: { page: number; pages?: number; hasMore?: boolean }) {
  const t = useConsoleT();
  const [search] = useSearchParams();
  const link = (number: number) => {
    const params = new URLSearchParams(search);
    if (number <= 1) params.delete('page');
    else params.set('page', String(number));
    return `?${params}`;
  };
  const hasNext = pages === undefined ? Boolean(hasMore) : page < pages;
  if (page <= 1 && !hasNext) return null;
  return (
    <nav className="pager" aria-label={t('console.pager.label')}>
      {page > 1 ? (
        <Link className="button" to={link(page - 1)} rel="prev">
          {t('console.pager.previous')}
        </Link>
      ) : null}
      <span className="muted">
        {pages === undefined ? t('console.pager.page', { page }) : t('console.pager.position', { page, pages })}
      </span>
      {hasNext ? (
        <Link className="button" to={link(page + 1)} rel="next">
          {t('console.pager.next')}
        </Link>
      ) : null}
    </nav>
  );
}
