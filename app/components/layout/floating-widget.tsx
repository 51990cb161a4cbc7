import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { ArrowUpIcon, ChatIcon } from '../ui/icons';

const SHOW_AFTER_PX = 400;

/**
 * SPEC section 2: fixed 80px from the right and the bottom; back to top and contact. Phones get
 * it at the end of the page instead, where it covers no content (layout.css).
 */
export function FloatingWidget() {
  const t = useT();
  const locale = useLocale();
  const [scrolled, setScrolled] = useState(false);

  useEffect(() => {
    const update = () => setScrolled(window.scrollY > SHOW_AFTER_PX);
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, []);

  return (
    <aside className="floating-widget" aria-label={t('shell.quickActions')}>
      <a
        href="#top"
        className="floating-widget__button"
        data-visible={scrolled}
        aria-hidden={scrolled ? undefined : true}
        tabIndex={scrolled ? undefined : -1}
        title={t('shell.backToTop')}
        onClick={(event) => {
          event.preventDefault();
          const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
          window.scrollTo({ top: 0, behavior: smooth ? 'smooth' : 'auto' });
          // Keyboard users continue from the top of the page.
          document.querySelector<HTMLElement>('.skip-link')?.focus({ preventScroll: true });
        }}
      >
        <ArrowUpIcon size={22} />
        <span className="sr-only">{t('shell.backToTop')}</span>
      </a>
      <Link
        to={localePath(locale, '/contact-us')}
        className="floating-widget__button floating-widget__button--primary"
        title={t('shell.contact')}
      >
        <ChatIcon size={22} />
        <span className="sr-only">{t('shell.contact')}</span>
      </Link>
    </aside>
  );
}
