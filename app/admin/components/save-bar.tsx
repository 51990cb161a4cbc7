import { useConsoleT } from '../lib/console-context';
import { ErrorNotice, Notice } from './ui';

/** A long form's save button, kept in view at the bottom, with the API's refusal or the saved notice beside it. */
export function SaveBar({ busy, error, saved }: { busy: boolean; error: unknown; saved: string | null }) {
  const t = useConsoleT();
  return (
    <div className="settings-actions">
      <ErrorNotice error={error} />
      {saved ? <Notice>{saved}</Notice> : null}
      <button type="submit" className="button button--primary" disabled={busy}>
        {t('console.action.save')}
      </button>
    </div>
  );
}
