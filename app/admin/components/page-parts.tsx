import type { FormEvent, ReactNode } from 'react';
import { useConsoleT } from '../lib/console-context';
import { Icon } from './icon';

/** The search field of a list's filter bar (a GET form), read from and kept in the page's URL as `q`. */
export function SearchBox({
  id,
  label,
  placeholder,
  value,
}: {
  id: string;
  label: string;
  placeholder: string;
  value: string | null | undefined;
}) {
  return (
    <div className="filter-bar__search">
      <label className="sr-only" htmlFor={id}>
        {label}
      </label>
      <Icon name="search" />
      <input id={id} name="q" type="search" defaultValue={value ?? ''} placeholder={placeholder} />
    </div>
  );
}

/**
 * One of a list's filters: a select whose first choice is 'Any', read from and kept in the
 * page's URL as `name`.
 */
export function FilterSelect({
  name,
  label,
  value,
  options,
}: {
  name: string;
  label: string;
  value: string | null | undefined;
  options: ReadonlyArray<{ value: string | number; label: string }>;
}) {
  const t = useConsoleT();
  return (
    <label className="filter">
      <span>{label}</span>
      <select name={name} defaultValue={value ?? ''}>
        <option value="">{t('console.filter.any')}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The end of a list's filter bar: Apply, and whatever else the page puts beside it. */
export function FilterApply({ children }: { children?: ReactNode }) {
  const t = useConsoleT();
  return (
    <div className="filter-bar__actions">
      <button type="submit" className="button button--primary">
        {t('console.filter.apply')}
      </button>
      {children}
    </div>
  );
}

/** A side panel's title with its Close button. */
export function PanelHead({ id, title, onClose }: { id: string; title: string; onClose: () => void }) {
  const t = useConsoleT();
  return (
    <div className="panel__head">
      <h2 id={id}>{title}</h2>
      <button type="button" className="button button--ghost" onClick={onClose}>
        {t('console.action.close')}
      </button>
    </div>
  );
}

/** A form's submit handler that stays on the page and runs `act` (a `useAction`'s) instead. */
export function submitWith(act: () => Promise<unknown>) {
  return (event: FormEvent) => {
    event.preventDefault();
    void act();
  };
}
