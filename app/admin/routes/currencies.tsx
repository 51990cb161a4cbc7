import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useRevalidator, type ClientLoaderFunctionArgs } from 'react-router';
import {
  exchangeRateBody,
  type ExchangeRateBody,
  type ExchangeRatesView,
  type ExchangeRateView,
} from '../../../server/domains/exchange-rates/exchange-rates.schemas';
import { adminApi, requireStaff } from '../lib/admin-api';
import { useConsole, useConsoleT, usePageData } from '../lib/console-context';
import { formatDateTime } from '../lib/format';
import { EmptyState, ErrorNotice, Field, Notice, PageHeader, Pill, useAction } from '../components/ui';
import '../styles/currencies.css';

/** /admin/settings/currencies: each display currency's rate with its source, time and staleness; update one at a time (ADR 0144). */
export async function clientLoader({ request }: ClientLoaderFunctionArgs) {
  await requireStaff(request);
  return { rates: await adminApi<ExchangeRatesView>('/exchange-rates', { signal: request.signal }) };
}

export function HydrateFallback() {
  return <div className="skeleton skeleton--block" aria-hidden="true" />;
}

export default function CurrenciesPage() {
  const { rates } = usePageData<typeof clientLoader>();
  const { locale } = useConsole();
  const t = useConsoleT();
  const revalidator = useRevalidator();
  const [editing, setEditing] = useState<ExchangeRateView | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const settlement = rates.settlement_currency;
  const anyStale = rates.rates.some((rate) => rate.stale);
  return (
    <>
      <PageHeader title={t('console.currencies.title')}>
        <p className="muted">{t('console.currencies.intro', { settlement })}</p>
      </PageHeader>
      {done ? <Notice>{done}</Notice> : null}
      {anyStale ? (
        <p className="notice notice--warning" role="status" data-testid="stale-rates-hint">
          {t('console.currencies.staleHint', { hours: rates.max_age_hours, settlement })}
        </p>
      ) : null}
      {editing ? (
        <RateEditor
          key={editing.currency}
          rate={editing}
          settlement={settlement}
          onClose={() => setEditing(null)}
          onSaved={async (message) => {
            setEditing(null);
            setDone(message);
            await revalidator.revalidate();
          }}
        />
      ) : null}
      <section>
        {rates.rates.length === 0 ? (
          <EmptyState title={t('console.currencies.none')} />
        ) : (
          <div className="table-wrap">
            <table className="data-table rate-table" data-testid="exchange-rates">
              <thead>
                <tr>
                  <th scope="col">{t('console.currencies.col.currency')}</th>
                  <th scope="col" className="numeric">
                    {t('console.currencies.col.rate', { settlement })}
                  </th>
                  <th scope="col">{t('console.currencies.col.source')}</th>
                  <th scope="col">{t('console.currencies.col.setAt')}</th>
                  <th scope="col">{t('console.currencies.col.status')}</th>
                  <th scope="col">
                    <span className="sr-only">{t('console.currencies.edit')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rates.rates.map((rate) => (
                  <tr key={rate.currency} data-testid={`rate-${rate.currency}`}>
                    <th scope="row" className="mono">
                      {rate.currency}
                    </th>
                    <td className="numeric mono">{rate.rate}</td>
                    <td>{rate.source}</td>
                    <td>
                      {formatDateTime(rate.set_at, locale)}
                      <span className="muted"> · {t('console.currencies.setBy', { who: rate.set_by })}</span>
                    </td>
                    <td>
                      {rate.stale ? (
                        <Pill tone="warning">{t('console.currencies.stale')}</Pill>
                      ) : (
                        <Pill tone="success">{t('console.currencies.fresh')}</Pill>
                      )}
                    </td>
                    <td>
                      <button
                        type="button"
                        className="button button--small"
                        onClick={() => {
                          setDone(null);
                          setEditing(rate);
                        }}
                        aria-label={t('console.currencies.editTitle', { currency: rate.currency })}
                      >
                        {t('console.currencies.edit')}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

function RateEditor({
  rate,
  settlement,
  onClose,
  onSaved,
}: {
  rate: ExchangeRateView;
  settlement: string;
  onClose: () => void;
  onSaved: (message: string) => Promise<void>;
}) {
  const t = useConsoleT();
  const form = useForm<ExchangeRateBody>({
    resolver: zodResolver(exchangeRateBody),
    // The rate as people write it: "21.370000" reads as 21.37.
    defaultValues: { rate: rate.rate.replace(/\.?0+$/, ''), source: '' },
  });
  const save = useAction(async (body: ExchangeRateBody) => {
    await adminApi(`/exchange-rates/${rate.currency}`, { method: 'PUT', body });
    await onSaved(t('console.currencies.saved', { currency: rate.currency }));
  });
  const errors = form.formState.errors;
  return (
    <section className="panel" aria-labelledby="rate-editor-title" data-testid="rate-editor">
      <div className="panel__head">
        <h2 id="rate-editor-title">{t('console.currencies.editTitle', { currency: rate.currency })}</h2>
        <button type="button" className="button button--ghost" onClick={onClose}>
          {t('console.currencies.cancel')}
        </button>
      </div>
      <form className="stack" noValidate onSubmit={(event) => void form.handleSubmit((body) => save.act(body))(event)}>
        <div className="form-row">
          <Field
            id="rate-value"
            label={t('console.currencies.rate', { currency: rate.currency, settlement })}
            error={errors.rate ? t('console.currencies.rateHint') : undefined}
          >
            <input id="rate-value" inputMode="decimal" autoComplete="off" {...form.register('rate')} />
          </Field>
          <Field
            id="rate-source"
            label={t('console.currencies.source')}
            error={errors.source ? t('console.currencies.sourceHint') : undefined}
          >
            <input id="rate-source" autoComplete="off" {...form.register('source')} />
          </Field>
        </div>
        <p className="field__hint">{t('console.currencies.sourceHint')}</p>
        <ErrorNotice error={save.error} />
        <div className="button-row">
          <button type="submit" className="button button--primary" disabled={save.busy} data-testid="rate-save">
            {t('console.currencies.save')}
          </button>
        </div>
      </form>
    </section>
  );
}
