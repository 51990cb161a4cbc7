import { Form, useSearchParams, type ClientLoaderFunctionArgs } from 'react-router';
import { AUDIT_ACTOR_TYPES, type AuditFacets, type AuditPage } from '../../../server/domains/audit/audit.schemas';
import { adminApi, requireStaff } from '../lib/admin-api';
import { useConsole, useConsoleT, usePageData } from '../lib/console-context';
import { formatDateTime } from '../lib/format';
import { EmptyState, PageHeader, Pill, SkeletonRows } from '../components/ui';
import { AuditChanges } from '../components/audit-changes';
import { Pager } from '../components/pager';
import { FilterApply, FilterSelect } from '../components/page-parts';

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
        <FilterSelect
          name="actor_type"
          label={t('console.audit.actor')}
          value={value('actor_type')}
          options={AUDIT_ACTOR_TYPES.map((type) => ({ value: type, label: type }))}
        />
        <label className="filter filter--narrow">
          <span>{t('console.audit.actorId')}</span>
          <input name="actor_id" inputMode="numeric" defaultValue={value('actor_id')} />
        </label>
        <FilterSelect
          name="entity_type"
          label={t('console.audit.entity')}
          value={value('entity_type')}
          options={facets.entity_types.map((type) => ({ value: type, label: type }))}
        />
        <label className="filter filter--narrow">
          <span>{t('console.audit.entityId')}</span>
          <input name="entity_id" defaultValue={value('entity_id')} />
        </label>
        <FilterSelect
          name="action"
          label={t('console.audit.action')}
          value={value('action')}
          options={facets.actions.map((action) => ({ value: action, label: action }))}
        />
        <label className="filter">
          <span>{t('console.filter.from')}</span>
          <input type="date" name="from" defaultValue={value('from')} />
        </label>
        <label className="filter">
          <span>{t('console.filter.to')}</span>
          <input type="date" name="to" defaultValue={value('to')} />
        </label>
        <FilterApply />
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
