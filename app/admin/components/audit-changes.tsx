import type { AuditEventView } from '../../../server/domains/audit/audit.schemas';
import { useConsoleT } from '../lib/console-context';
import { countText } from '../lib/format';

const show = (value: unknown) =>
  value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value);

/** An audit event's changed fields, before and after, in a disclosure (closed by default). */
export function AuditChanges({ changes }: { changes: AuditEventView['changes'] }) {
  const t = useConsoleT();
  const fields = Object.entries(changes);
  if (fields.length === 0) return null;
  return (
    <details className="audit-changes">
      <summary>{countText(t, 'console.audit.changes', fields.length)}</summary>
      <table className="data-table data-table--compact">
        <thead>
          <tr>
            <th scope="col">{t('console.audit.field')}</th>
            <th scope="col">{t('console.audit.before')}</th>
            <th scope="col">{t('console.audit.after')}</th>
          </tr>
        </thead>
        <tbody>
          {fields.map(([field, change]) => (
            <tr key={field}>
              <th scope="row" className="mono">
                {field}
              </th>
              <td className="mono diff diff--before">{show(change.before)}</td>
              <td className="mono diff diff--after">{show(change.after)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
