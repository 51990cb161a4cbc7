import { Link } from 'react-router';
import { useLocale, useT, localePath } from '~/lib/i18n';

export function ErrorPage({ status, title, description }: { status: number; title: string; description?: string }) {
  const t = useT();
  const locale = useLocale();
  return (
    <main className="error-page" id="main">
      <p className="error-page__status">{status}</p>
      <h1 className="error-page__title">{title}</h1>
      {description ? <p className="error-page__description">{description}</p> : null}
      <Link className="button button--primary" to={localePath(locale, '/')}>
        {t('shell.goHome')}
      </Link>
    </main>
  );
}
