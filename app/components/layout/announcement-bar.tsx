import { useEffect, useState } from 'react';
import { useRouteLoaderData } from 'react-router';
import { useT } from '~/lib/i18n';
import type { RootLoaderData } from '~/root';

const DISMISSED_KEY = 'announcement-dismissed';

function readDismissed(): string | null {
  try {
    return window.localStorage.getItem(DISMISSED_KEY);
  } catch {
    return null;
  }
}

/**
 * The owner's announcement (site setting `announcement`, per language) above the header; no
 * bar when the text is empty. Dismissing it hides that text in this browser until the owner
 * writes another one. The server's page is the same for everyone (it is cached), so a bar
 * dismissed earlier goes away once the page has hydrated.
 */
export function AnnouncementBar() {
  const t = useT();
  const text = useRouteLoaderData<RootLoaderData>('root')?.site.announcement ?? '';
  const [dismissed, setDismissed] = useState(false);
  useEffect(() => {
    setDismissed(readDismissed() === text);
  }, [text]);
  if (!text || dismissed) return null;
  const dismiss = () => {
    setDismissed(true);
    try {
      window.localStorage.setItem(DISMISSED_KEY, text);
    } catch {
      // Private browsing without storage: hidden for this page only.
    }
  };
  return (
    <aside className="announcement-bar" aria-label={t('shell.announcement.label')}>
      <p className="announcement-bar__text">{text}</p>
      <button
        type="button"
        className="announcement-bar__close"
        onClick={dismiss}
        aria-label={t('shell.announcement.dismiss')}
      >
        <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
          <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
    </aside>
  );
}
