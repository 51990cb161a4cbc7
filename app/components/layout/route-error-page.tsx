import { useEffect } from 'react';
import { isRouteErrorResponse, Link, useLocation } from 'react-router';
import { localePath, useCurrentPath, useLocale, useT } from '~/lib/i18n';
import { ROUTE_ERROR_EVENT } from './loading-bar';

/** The general error page's content (SPEC section 2); the caller decides whether the shell surrounds it. */
export function ErrorPage({ status, title, description }: { status: number; title: string; description?: string }) {
  const t = useT();
  const locale = useLocale();
  const { key } = useLocation();
  useEffect(() => {
    window.dispatchEvent(new Event(ROUTE_ERROR_EVENT));
  }, [key]);
  return (
    <section className="error-page" aria-labelledby="error-title">
      <p className="error-page__status" aria-hidden="true">
        {status}
      </p>
      <h1 className="error-page__title" id="error-title">
        {title}
      </h1>
      {description ? <p className="error-page__description">{description}</p> : null}
      <div className="error-page__actions">
        <Link className="button button--primary" to={localePath(locale, '/')}>
          {t('shell.goHome')}
        </Link>
        <Link className="button button--secondary" to={localePath(locale, '/contact-us')}>
          {t('nav.contactUs')}
        </Link>
      </div>
    </section>
  );
}

/**
 * Maps whatever a loader or component threw to the error page: 404 is 'Page Not Found';
 * another 4xx (a form that could not be read) says the request was refused; anything else is
 * 'Internal Server Error'; each with the message as description. Messages of
 * unexpected exceptions stay out of production pages (the server already replaces them).
 */
export function RouteErrorPage({ error }: { error: unknown }) {
  const t = useT();
  const { pathname } = useCurrentPath();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <ErrorPage
        status={404}
        title={t('error.pageNotFound')}
        description={t('shell.notFoundHint', { path: pathname })}
      />
    );
  }
  let description = t('error.internalDescription');
  if (isRouteErrorResponse(error)) {
    if (typeof error.data === 'string' && error.data) description = error.data;
    else if (error.statusText) description = error.statusText;
  } else if (import.meta.env.DEV && error instanceof Error) {
    description = error.message;
  }
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <ErrorPage
      status={status}
      title={t(status < 500 ? 'error.requestRefused' : 'error.internal')}
      description={description}
    />
  );
}
