import { useEffect, useId, useRef, useState } from 'react';
import { Form, useLocation } from 'react-router';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { CloseIcon } from '../ui/icons';
import { SearchIcon } from './icons';
import { KEYWORD_MAX_LENGTH } from './listing';
import { useHydrated } from './use-hydrated';

/**
 * The header's product search: a GET form to /{locale}/search. Wide screens show the field
 * inline. Phones show a search button that opens the field in a bar under the header; without
 * JavaScript that button is a link to the search page, which has its own search field.
 */
export function HeaderSearch() {
  const t = useT();
  const locale = useLocale();
  const hydrated = useHydrated();
  const { pathname, search } = useLocation();
  const id = useId();
  const [open, setOpen] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const toggle = useRef<HTMLAnchorElement>(null);
  const searchPath = localePath(locale, '/search');

  // Any navigation (including this form's own submission) folds the phone bar away.
  useEffect(() => {
    setOpen(false);
  }, [pathname, search]);

  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);

  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };

  return (
    <div className="header-search" data-open={open}>
      <a
        ref={toggle}
        href={searchPath}
        className="icon-button header-search__toggle"
        role={hydrated ? 'button' : undefined}
        aria-expanded={hydrated ? open : undefined}
        aria-controls={hydrated ? `${id}-form` : undefined}
        onClick={(event) => {
          event.preventDefault();
          setOpen((value) => !value);
        }}
      >
        <SearchIcon size={22} />
        <span className="sr-only">{t('search.open')}</span>
      </a>
      <Form
        method="get"
        action={searchPath}
        role="search"
        aria-label={t('search.label')}
        id={`${id}-form`}
        className="header-search__form"
        onSubmit={() => {
          // Fold the phone bar (and its keyboard) away at once; the results page has its own field.
          setOpen(false);
          input.current?.blur();
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && open) close();
        }}
      >
        <label className="sr-only" htmlFor={`${id}-input`}>
          {t('search.label')}
        </label>
        <span className="header-search__field">
          <input
            ref={input}
            id={`${id}-input`}
            className="header-search__input"
            type="search"
            name="keyword"
            maxLength={KEYWORD_MAX_LENGTH}
            placeholder={t('search.placeholder')}
            autoComplete="off"
            enterKeyHint="search"
          />
          <button type="submit" className="header-search__submit">
            <SearchIcon size={18} />
            <span className="sr-only">{t('search.submit')}</span>
          </button>
        </span>
        <button type="button" className="icon-button header-search__close" onClick={close}>
          <CloseIcon size={20} />
          <span className="sr-only">{t('search.close')}</span>
        </button>
      </Form>
    </div>
  );
}
