import { lazy, Suspense } from 'react';
import { useT } from '~/lib/i18n';
import { useHydrated } from '../catalog/use-hydrated';
import { AnnouncementBar } from './announcement-bar';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

/**
 * Parts that only matter once the page is interactive: the loading bar (client navigations)
 * and back to top and contact (SPEC section 2, once the visitor has scrolled). Their code
 * comes after hydration in chunks of their own (vite.config.ts keeps them out of the shell),
 * so the JavaScript every page needs first stays within its budget
 * (tests/api/javascript-budget.test.ts). Neither the server nor hydration renders them.
 */
const LoadingBar = lazy(() => import('./loading-bar').then((module) => ({ default: module.LoadingBar })));
const FloatingWidget = lazy(() => import('./floating-widget').then((module) => ({ default: module.FloatingWidget })));

function AfterHydration({ children }: { children: React.ReactNode }) {
  return useHydrated() ? <Suspense fallback={null}>{children}</Suspense> : null;
}

/**
 * The frame around every storefront page. It owns the page's single <main id="main">:
 * route modules render their content only, never another <main>.
 */
export function SiteShell({ children }: { children: React.ReactNode }) {
  const t = useT();
  return (
    <>
      <a className="skip-link" href="#main">
        {t('shell.skipToContent')}
      </a>
      <AfterHydration>
        <LoadingBar />
      </AfterHydration>
      <AnnouncementBar />
      <SiteHeader />
      <main id="main" className="site-main" tabIndex={-1}>
        {children}
      </main>
      <SiteFooter />
      <AfterHydration>
        <FloatingWidget />
      </AfterHydration>
    </>
  );
}
