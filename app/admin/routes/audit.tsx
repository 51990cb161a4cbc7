import { Form, useSearchParams, type ClientLoaderFunctionArgs } from 'react-router';
import { AUDIT_ACTOR_TYPES, type AuditFacets, type AuditPage } from '../../../server/domains/audit/audit.schemas';
import { adminApi, requireStaff } from '../lib/admin-api';
import { useConsole, useConsoleT, usePageData } from '../lib/console-context';
import { formatDateTime } from '../lib/format';
import { EmptyState, PageHeader, Pill, SkeletonRows } from '../components/ui';
import { AuditChanges } from '../components/audit-changes';
import { Pager } from '../components/pager';

const FILTERS = ['actor_type', 'actor_id', 'entity_type', 'entity_id', 'action', 'from', 'to', 'page'] as const;

export async function clientLoader({ request }: ClientLoaderFunctionArgs) {
  await requireStaff(request);
  const search = new URL(request.url).searchParams;
  const query = Object.fromEntries(FILTERS.map((name) => [name, search.get(name)]));
  const [page, facets] = await Promise.all([
    adminApi<AuditPage>('/audit', { query, signal: request.signal }),
    adminApi<AuditFacets>('/audit/facets', { signal: request.signal }),
  ]);
  return { page, facets };
}

export function HydrateFallback() {
  return <SkeletonRows />;
}

/** The audit log, newest first, filtered by actor, entity, action and date; each event's changes open in place. */
export default function AuditPageView() {
  const { page, facets } = usePageData<typeof clientLoader>();
  const { locale } = useConsole();
  const t = useConsoleT();
  const [search] = useSearchParams();
  const value = (name: string) => search.get(name) ?? '';
  return (
    <>
      <PageHeader title={t('console.audit.title')}>
        <p className="muted">{t('console.audit.intro')}</p>
      </PageHeader>
      <Form method="get" className="filter-bar" aria-label={t('console.orders.filters')}>
        <label className="filter">
          <span>{t('console.audit.actor')}</span>
          <select name="actor_type" defaultValue={value('actor_type')}>
            <option value="">{t('console.filter.any')}</option>
            {AUDIT_ACTOR_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        <label className="filter filter--narrow">
          <span>{t('console.audit.actorId')}</span>
          <input name="actor_id" inputMode="numeric" defaultValue={value('actor_id')} />
        </label>
        <label className="filter">
          <span>{t('console.audit.entity')}</span>
          <select name="entity_type" defaultValue={value('entity_type')}>
            <option value="">{t('console.filter.any')}</option>
            {facets.entity_types.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        <label className="filter filter--narrow">
          <span>{t('console.audit.entityId')}</span>
          <input name="entity_id" defaultValue={value('entity_id')} />
        </label>
        <label className="filter">
          <span>{t('console.audit.action')}</span>
          <select name="action" defaultValue={value('action')}>
            <option value="">{t('console.filter.any')}</option>
            {facets.actions.map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
          </select>
        </label>
        <label className="filter">
          <span>{t('console.filter.from')}</span>
          <input type="date" name="from" defaultValue={value('from')} />
        </label>
        <label className="filter">
          <span>{t('console.filter.to')}</span>
          <input type="date" name="to" defaultValue={value('to')} />
        </label>
        <div className="filter-bar__actions">
          <button type="submit" className="button button--primary">
            {t('console.filter.apply')}
          </button>
        </div>
      </Form>
      {page.records.length === 0 ? (
        <EmptyState title={t('console.audit.empty')} />
      ) : (
        <div className="table-wrap">
          <table className="data-table">
            <caption className="sr-only">{t('console.audit.title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('console.audit.when')}</th>
                <th scope="col">{t('console.audit.actor')}</th>
                <th scope="col">{t('console.audit.action')}</th>
                <th scope="col">{t('console.audit.entity')}</th>
                <th scope="col">{t('console.audit.changesTitle')}</th>
              </tr>
            </thead>
            <tbody>
              {page.records.map((event) => (
                <tr key={event.id} className="audit-row">
                  <td className="nowrap">{formatDateTime(event.at, locale)}</td>
                  <td>
                    <span className="cell-stack">
                      <span>{event.actor_label}</span>
                      {event.ip ? <span className="muted mono">{event.ip}</span> : null}
                    </span>
                  </td>
                  <td>
                    <Pill tone="neutral">
                      <span className="mono">{event.action}</span>
                    </Pill>
                  </td>
                  <td className="mono">
                    {event.entity_type} #{event.entity_id}
                  </td>
                  <td>
                    <AuditChanges changes={event.changes} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page.page} hasMore={page.has_more} />
    </>
  );
}
