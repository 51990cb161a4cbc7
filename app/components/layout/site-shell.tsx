import { useT } from '~/lib/i18n';
import { AnnouncementBar } from './announcement-bar';
import { FloatingWidget } from './floating-widget';
import { LoadingBar } from './loading-bar';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

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
      <LoadingBar />
      <AnnouncementBar />
      <SiteHeader />
      <main id="main" className="site-main" tabIndex={-1}>
        {children}
      </main>
      <SiteFooter />
      <FloatingWidget />
    </>
  );
}
