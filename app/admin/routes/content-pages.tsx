import { Link, type ClientLoaderFunctionArgs } from 'react-router';
import type { ContentPageSummary } from '../../../server/domains/content/content-editor.schemas';
import { adminApi, requireStaff } from '../lib/admin-api';
import { useConsole, useConsoleT, usePageData } from '../lib/console-context';
import { formatDateTime } from '../lib/format';
import { PageHeader, SkeletonRows } from '../components/ui';

export async function clientLoader({ request }: ClientLoaderFunctionArgs) {
  await requireStaff(request);
  return { pages: await adminApi<ContentPageSummary[]>('/content-pages', { signal: request.signal }) };
}

export function HydrateFallback() {
  return <SkeletonRows rows={4} />;
}

/** The four content pages of the storefront's navigation (docs/console.md), each opened in the block editor. */
export default function ContentPagesPage() {
  const { pages } = usePageData<typeof clientLoader>();
  const { locale } = useConsole();
  const t = useConsoleT();
  return (
    <>
      <PageHeader title={t('console.content.title')} />
      <div className="table-wrap">
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{t('console.content.page')}</th>
              <th scope="col" className="numeric">
                {t('console.content.blocks')}
              </th>
              <th scope="col">{t('console.content.updated')}</th>
            </tr>
          </thead>
          <tbody>
            {pages.map((page) => (
              <tr key={page.slug}>
                <td>
                  <span className="cell-stack">
                    <Link className="table-link" to={`/admin/content/${page.slug}`}>
                      {page.title[locale]}
                    </Link>
                    <span className="muted">/{page.slug}</span>
                  </span>
                </td>
                <td className="numeric">
                  {page.blocks.en} / {page.blocks['zh-cn']}
                </td>
                <td>{formatDateTime(page.updated_at, locale)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
