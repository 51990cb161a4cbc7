import type { FormEvent } from 'react';
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
  value: string | null;
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
