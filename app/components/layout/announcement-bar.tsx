import { useT } from '~/lib/i18n';
import { useRootData } from '~/lib/root-data';

/**
 * The owner's announcement (site setting `announcement`, per language) above the header; no
 * bar when the text is empty. Its close button is handled by ANNOUNCEMENT_HINT_SCRIPT
 * (server/shared/announcement-hint.ts), which hides that text in this browser until the owner
 * writes another one.
 */
export function AnnouncementBar() {
  const t = useT();
  const text = useRootData()?.site.announcement;
  if (!text) return null;
  return (
    <aside className="announcement-bar" data-text={text} aria-label={t('shell.announcement.label')}>
      <p className="announcement-bar__text">{text}</p>
      <button type="button" className="announcement-bar__close" aria-label={t('shell.announcement.dismiss')}>
        ×
      </button>
    </aside>
  );
}
