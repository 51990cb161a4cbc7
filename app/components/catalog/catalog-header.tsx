import { Link } from 'react-router';
import { Breadcrumb, type Crumb } from '../ui/breadcrumb';

export interface Chip {
  name: string;
  href: string;
  current: boolean;
}

/** The title band of a listing page: breadcrumb trail, title, lead and sub-category chips. */
export function CatalogHeader({
  title,
  lead,
  trail = [],
  chips = [],
  children,
}: {
  title: string;
  lead?: React.ReactNode;
  /** Crumbs between Home and the current page. */
  trail?: Crumb[];
  chips?: Chip[];
  children?: React.ReactNode;
}) {
  return (
    <header className="catalog-header">
      <div className="container">
        <Breadcrumb current={title} trail={trail} />
        <h1 className="catalog-header__title">{title}</h1>
        {lead ? <p className="catalog-header__lead">{lead}</p> : null}
        {children}
        {chips.length > 0 ? (
          <ul className="chips" role="list">
            {chips.map((chip) => (
              <li key={chip.href}>
                <Link className="chip" to={chip.href} aria-current={chip.current ? 'page' : undefined}>
                  {chip.name}
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </header>
  );
}

/** A calm empty state: an illustration, a title (SPEC section 8's 'No data' / 'No matching data'), a hint and ways on. */
export function EmptyState({
  title,
  hint,
  children,
}: {
  title: string;
  hint?: React.ReactNode;
  children?: React.ReactNode;
}) {
  return (
    <div className="empty-state">
      <svg className="empty-state__art" width="96" height="96" viewBox="0 0 96 96" aria-hidden="true" focusable="false">
        <circle cx="48" cy="48" r="44" fill="var(--color-primary-soft)" />
        <path
          d="M28 38h40l-4 30a4 4 0 0 1-4 3.5H36a4 4 0 0 1-4-3.5z"
          fill="var(--color-surface)"
          stroke="var(--color-primary-strong)"
          strokeWidth="2.5"
          strokeLinejoin="round"
        />
        <path
          d="M38 38v-4a10 10 0 0 1 20 0v4"
          fill="none"
          stroke="var(--color-primary-strong)"
          strokeWidth="2.5"
          strokeLinecap="round"
        />
        <path d="M41 54h14" stroke="var(--color-primary-strong)" strokeWidth="2.5" strokeLinecap="round" />
      </svg>
      <h2 className="empty-state__title">{title}</h2>
      {hint ? <p className="empty-state__hint">{hint}</p> : null}
      {children ? <div className="empty-state__actions">{children}</div> : null}
    </div>
  );
}
