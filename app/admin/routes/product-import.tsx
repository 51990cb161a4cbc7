import { useState, type FormEvent } from 'react';
import { Link, type ClientLoaderFunctionArgs } from 'react-router';
import { readBrowserCookie } from '~/lib/api-client';
import type { ProductImportProgress, ProductImportReport } from '../../../server/domains/catalog/product-csv.schemas';
import { AdminApiError, requireStaff } from '../lib/admin-api';
import { useCan, useConsole, useConsoleT } from '../lib/console-context';
import { ErrorNotice, Notice, PageHeader } from '../components/ui';
import '../styles/product-csv.css';

/** How many problems the report lists; the rest are counted. */
const SHOWN_PROBLEMS = 100;

export async function clientLoader({ request }: ClientLoaderFunctionArgs) {
  await requireStaff(request);
  return null;
}

type Phase = { kind: 'idle' } | { kind: 'busy'; progress: ProductImportProgress | null };

/** The bar's figures and words for a progress line: images fetched, rows checked, then rows written. */
function progressOf(progress: ProductImportProgress | null, t: ReturnType<typeof useConsoleT>) {
  if (progress?.to_write !== undefined)
    return {
      value: progress.written ?? 0,
      max: progress.to_write,
      label: t('adminProductCsv.writingRows', { written: progress.written ?? 0, total: progress.to_write }),
    };
  if (progress?.to_fetch !== undefined)
    return {
      value: progress.fetched ?? 0,
      max: progress.to_fetch,
      label: t('adminProductCsv.fetching', { fetched: progress.fetched ?? 0, total: progress.to_fetch }),
    };
  return {
    value: progress?.checked,
    max: progress?.total,
    label: t('adminProductCsv.checking', { checked: progress?.checked ?? 0, total: progress?.total ?? 0 }),
  };
}

/**
 * `POST /v1/admin/products/import?progress=ndjson`: the progress lines feed `onProgress`,
 * the last line is the envelope of the report (or of a refusal).
 */
async function sendFile(
  file: File,
  dryRun: boolean,
  lang: string,
  onProgress: (progress: ProductImportProgress) => void,
): Promise<ProductImportReport> {
  const form = new FormData();
  form.append('file', file);
  const headers: Record<string, string> = { accept: 'application/x-ndjson', lang };
  const csrf = readBrowserCookie('csrf_token');
  if (csrf) headers['x-csrf-token'] = csrf;
  const response = await fetch(`/v1/admin/products/import?dry_run=${dryRun}&progress=ndjson`, {
    method: 'POST',
    headers,
    body: form,
    credentials: 'same-origin',
  });
  if (!response.body || !response.headers.get('content-type')?.startsWith('application/x-ndjson')) {
    const envelope = (await response.json().catch(() => ({}))) as { code?: number; msg?: string };
    throw new AdminApiError(response.status, envelope.code ?? response.status, envelope.msg || response.statusText);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  let last: { code?: number; msg?: string; data?: ProductImportReport } = {};
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffered += value;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines.filter(Boolean)) {
      const parsed = JSON.parse(line) as { progress?: ProductImportProgress } & typeof last;
      if (parsed.progress) onProgress(parsed.progress);
      else last = parsed;
    }
    if (done) break;
  }
  if (last.code === 200 && last.data) return last.data;
  throw new AdminApiError(response.status, last.code ?? response.status, last.msg || response.statusText);
}

export default function ProductImportPage() {
  const t = useConsoleT();
  const { locale } = useConsole();
  const canWrite = useCan()('catalog:write');
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [report, setReport] = useState<ProductImportReport | null>(null);
  const [error, setError] = useState<unknown>(null);

  async function run(dryRun: boolean) {
    if (!file) return;
    setError(null);
    setPhase({ kind: 'busy', progress: null });
    try {
      const answer = await sendFile(file, dryRun, locale, (progress) => setPhase({ kind: 'busy', progress }));
      setReport(answer);
    } catch (failure) {
      setReport(null);
      setError(failure);
    } finally {
      setPhase({ kind: 'idle' });
    }
  }

  function check(event: FormEvent) {
    event.preventDefault();
    void run(true);
  }

  const busy = phase.kind === 'busy';
  const bar = progressOf(busy ? phase.progress : null, t);
  const problems = report?.problems ?? [];
  const ready = report?.dry_run && problems.length === 0;
  return (
    <>
      <PageHeader
        title={t('adminProductCsv.title')}
        actions={
          <a className="button" href="/v1/admin/products/export.csv" download>
            {t('adminProductCsv.export')}
          </a>
        }
      >
        <p className="muted">
          <Link to="/admin/products">{t('adminProductCsv.back')}</Link>
        </p>
      </PageHeader>
      <section className="card csv-import">
        <p className="muted">{t('adminProductCsv.intro')}</p>
        {canWrite ? (
          <form className="csv-import__form" onSubmit={check}>
            <div className="field">
              <label htmlFor="csv-file">{t('adminProductCsv.file')}</label>
              <input
                id="csv-file"
                type="file"
                accept=".csv,text/csv"
                onChange={(event) => {
                  setFile(event.currentTarget.files?.[0] ?? null);
                  setReport(null);
                  setError(null);
                }}
              />
            </div>
            <div className="button-row">
              <button type="submit" className="button" disabled={!file || busy}>
                {t('adminProductCsv.check')}
              </button>
              <button
                type="button"
                className="button button--primary"
                disabled={!ready || busy}
                onClick={() => void run(false)}
              >
                {t('adminProductCsv.import')}
              </button>
            </div>
          </form>
        ) : null}
        {busy ? (
          <div className="csv-import__progress" role="status">
            <progress max={bar.max || 1} value={bar.value} aria-label={bar.label} />
            <span className="muted">{bar.label}</span>
          </div>
        ) : null}
        <ErrorNotice error={error} />
        {report ? <ImportReport report={report} /> : null}
      </section>
    </>
  );
}

function ImportReport({ report }: { report: ProductImportReport }) {
  const t = useConsoleT();
  const shown = report.problems.slice(0, SHOWN_PROBLEMS);
  return (
    <div className="csv-import__report">
      <p>
        {t('adminProductCsv.summary', {
          rows: report.rows,
          create: report.products.create,
          update: report.products.update,
          unchanged: report.products.unchanged,
          skuCreate: report.skus.create,
          skuUpdate: report.skus.update,
          skuRemove: report.skus.remove,
          skuUnchanged: report.skus.unchanged,
        })}
      </p>
      {report.ignored_columns.length ? (
        <p className="muted">{t('adminProductCsv.ignored', { columns: report.ignored_columns.join(', ') })}</p>
      ) : null}
      {report.written ? (
        <Notice>{t('adminProductCsv.done', { create: report.products.create, update: report.products.update })}</Notice>
      ) : report.problems.length === 0 ? (
        <Notice tone="info">{t('adminProductCsv.clean')}</Notice>
      ) : null}
      {report.problems.length > 0 ? (
        <>
          <p className="notice notice--error" role="alert">
            {report.written
              ? t('adminProductCsv.stale', { count: report.problems.length })
              : t('adminProductCsv.problems', { count: report.problems.length })}
          </p>
          <div className="table-wrap">
            <table className="data-table data-table--compact">
              <thead>
                <tr>
                  <th scope="col" className="numeric">
                    {t('adminProductCsv.row')}
                  </th>
                  <th scope="col">{t('adminProductCsv.column')}</th>
                  <th scope="col">{t('adminProductCsv.problem')}</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((problem, index) => (
                  <tr key={`${problem.row}-${problem.column}-${index}`}>
                    <td className="numeric">{problem.row}</td>
                    <td>
                      <code>{problem.column}</code>
                    </td>
                    <td>{problem.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {report.problems.length > shown.length ? (
            <p className="muted">
              {t('adminProductCsv.moreProblems', { count: report.problems.length - shown.length })}
            </p>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
