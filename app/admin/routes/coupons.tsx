import { useState } from 'react';
import { useRevalidator, type ClientLoaderFunctionArgs } from 'react-router';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import type { z } from 'zod';
import type { MessageKey, Translate } from '../../../i18n';
import type { Locale } from '../../../i18n/locales';
import {
  couponBody,
  COUPON_KINDS,
  type couponList,
  type CouponView,
} from '../../../server/domains/coupons/coupon-editor.schemas';
import { describeIssue } from '../../../server/shared/issue-messages';
import { adminApi, requireStaff } from '../lib/admin-api';
import { useConsole, useConsoleT, usePageData } from '../lib/console-context';
import { formatDateTime, formatMoney, majorToMinor, minorToMajorText } from '../lib/format';
import type { PillTone } from '../lib/tones';
import {
  EmptyState,
  ErrorNotice,
  Field,
  Notice,
  PageHeader,
  Pill,
  SkeletonRows,
  TextField,
  useAction,
} from '../components/ui';
import { DataTableHead, DataTableRows } from '../components/data-table';
import '../styles/shipping-coupons.css';

type CouponList = z.infer<typeof couponList>;

export async function clientLoader({ request }: ClientLoaderFunctionArgs) {
  await requireStaff(request);
  return { list: await adminApi<CouponList>('/coupons', { signal: request.signal }) };
}

export function HydrateFallback() {
  return <SkeletonRows />;
}

type CouponState = 'active' | 'disabled' | 'expired' | 'scheduled' | 'usedUp';
const STATE_TONES: Record<CouponState, PillTone> = {
  active: 'success',
  disabled: 'neutral',
  expired: 'warning',
  scheduled: 'info',
  usedUp: 'warning',
};

function stateOf(coupon: CouponView, now: number): CouponState {
  if (!coupon.active) return 'disabled';
  if (coupon.expires_at && Date.parse(coupon.expires_at) <= now) return 'expired';
  if (coupon.starts_at && Date.parse(coupon.starts_at) > now) return 'scheduled';
  if (coupon.usage_limit !== null && coupon.used_count >= coupon.usage_limit) return 'usedUp';
  return 'active';
}

function discountText(t: Translate, coupon: Pick<CouponView, 'kind' | 'value'>, currency: string, locale: Locale) {
  return coupon.kind === 'percent'
    ? t('console.coupons.percentOff', { value: coupon.value })
    : t('console.coupons.amountOff', { amount: formatMoney(coupon.value, currency, locale) });
}

function validText(t: Translate, coupon: CouponView, locale: Locale) {
  const start = coupon.starts_at ? formatDateTime(coupon.starts_at, locale) : null;
  const end = coupon.expires_at ? formatDateTime(coupon.expires_at, locale) : null;
  if (start && end) return t('console.coupons.between', { start, end });
  if (start) return t('console.coupons.from', { start });
  if (end) return t('console.coupons.until', { end });
  return t('console.coupons.always');
}

const column = createColumnHelper<CouponView>();

export default function CouponsPage() {
  const { list } = usePageData<typeof clientLoader>();
  const { locale } = useConsole();
  const t = useConsoleT();
  const revalidator = useRevalidator();
  const currency = list.currency;
  const [editing, setEditing] = useState<CouponView | 'new' | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const toggle = useAction(async (coupon: CouponView) => {
    await adminApi(`/coupons/${coupon.id}/active`, { method: 'PUT', body: { active: !coupon.active } });
    setDone(t(coupon.active ? 'console.coupons.disabled' : 'console.coupons.enabled', { code: coupon.code }));
    await revalidator.revalidate();
  });
  const now = Date.now();
  const columns = [
    column.accessor('code', {
      header: () => t('console.coupons.col.code'),
      cell: (info) => <span className="mono">{info.getValue()}</span>,
    }),
    column.display({
      id: 'discount',
      header: () => t('console.coupons.col.discount'),
      cell: (info) => discountText(t, info.row.original, currency, locale),
    }),
    column.accessor('min_spend_minor', {
      header: () => t('console.coupons.col.minSpend'),
      meta: { numeric: true, wideOnly: true },
      cell: (info) => formatMoney(info.getValue(), currency, locale),
    }),
    column.display({
      id: 'valid',
      header: () => t('console.coupons.col.valid'),
      meta: { wideOnly: true },
      cell: (info) => validText(t, info.row.original, locale),
    }),
    column.accessor('used_count', {
      header: () => t('console.coupons.col.used'),
      meta: { numeric: true },
      cell: (info) =>
        info.row.original.usage_limit === null
          ? info.getValue()
          : t('console.coupons.usedOf', { used: info.getValue(), limit: info.row.original.usage_limit }),
    }),
    column.accessor('buyers', { header: () => t('console.coupons.col.buyers'), meta: { numeric: true } }),
    column.accessor('discount_given_minor', {
      header: () => t('console.coupons.col.given'),
      meta: { numeric: true },
      cell: (info) => formatMoney(info.getValue(), currency, locale),
    }),
    column.display({
      id: 'state',
      header: () => t('console.coupons.col.status'),
      cell: (info) => {
        const state = stateOf(info.row.original, now);
        return <Pill tone={STATE_TONES[state]}>{t(`console.coupons.status.${state}` as MessageKey)}</Pill>;
      },
    }),
    column.display({
      id: 'actions',
      header: () => <span className="sr-only">{t('console.coupons.edit')}</span>,
      cell: (info) => (
        <span className="coupon-actions">
          <button type="button" className="button button--small" onClick={() => setEditing(info.row.original)}>
            {t('console.coupons.edit')}
          </button>
          <button
            type="button"
            className="button button--small button--ghost"
            disabled={toggle.busy}
            onClick={() => void toggle.act(info.row.original)}
          >
            {t(info.row.original.active ? 'console.coupons.disable' : 'console.coupons.enable')}
          </button>
        </span>
      ),
    }),
  ];
  const table = useReactTable({ data: list.records, columns, getCoreRowModel: getCoreRowModel() });
  return (
    <>
      <PageHeader
        title={t('console.coupons.title')}
        actions={
          <button type="button" className="button button--primary" onClick={() => setEditing('new')}>
            {t('console.coupons.new')}
          </button>
        }
      >
        <p className="muted">{t('console.coupons.intro')}</p>
      </PageHeader>
      {done ? <Notice>{done}</Notice> : null}
      <ErrorNotice error={toggle.error} />
      {editing ? (
        <CouponEditor
          key={editing === 'new' ? 'new' : editing.id}
          coupon={editing === 'new' ? null : editing}
          currency={currency}
          onClose={() => setEditing(null)}
          onSaved={async (code) => {
            setEditing(null);
            setDone(t('console.coupons.saved', { code }));
            await revalidator.revalidate();
          }}
        />
      ) : null}
      <div className="table-wrap">
        {list.records.length === 0 ? (
          <EmptyState title={t('console.coupons.empty')} />
        ) : (
          <table className="data-table coupon-table">
            <caption className="sr-only">{t('console.coupons.title')}</caption>
            <DataTableHead table={table} />
            <DataTableRows table={table} />
          </table>
        )}
      </div>
    </>
  );
}

/** `2026-11-27T10:00` in the member's time zone for a datetime-local input, and back. */
function localInputOf(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}
function isoOf(local: string): string | null {
  return local ? new Date(local).toISOString() : null;
}

function CouponEditor({
  coupon,
  currency,
  onClose,
  onSaved,
}: {
  coupon: CouponView | null;
  currency: string;
  onClose: () => void;
  onSaved: (code: string) => Promise<void>;
}) {
  const { locale } = useConsole();
  const t = useConsoleT();
  const [code, setCode] = useState(coupon?.code ?? '');
  const [kind, setKind] = useState<CouponView['kind']>(coupon?.kind ?? 'percent');
  const [value, setValue] = useState(
    coupon ? (coupon.kind === 'fixed' ? minorToMajorText(coupon.value, currency) : String(coupon.value)) : '',
  );
  const [minSpend, setMinSpend] = useState(coupon ? minorToMajorText(coupon.min_spend_minor, currency) : '0');
  const [startsAt, setStartsAt] = useState(localInputOf(coupon?.starts_at ?? null));
  const [expiresAt, setExpiresAt] = useState(localInputOf(coupon?.expires_at ?? null));
  const [usageLimit, setUsageLimit] = useState(coupon?.usage_limit?.toString() ?? '');
  const [active, setActive] = useState(coupon?.active ?? true);
  const [invalid, setInvalid] = useState<string | null>(null);
  const locked = coupon?.locked ?? false;
  const save = useAction(async (body: z.output<typeof couponBody>) => {
    if (coupon) await adminApi(`/coupons/${coupon.id}`, { method: 'PUT', body });
    else await adminApi('/coupons', { body });
    await onSaved(body.code);
  });

  const submit = () => {
    // What is not a number goes to the schema as typed, so its message names the field.
    const typed = (text: string, parsed: number | null) => parsed ?? (text.trim() === '' ? undefined : text);
    const percent = /^\d+$/.test(value.trim()) ? Number(value) : null;
    const parsed = couponBody.safeParse({
      code,
      kind,
      value: typed(value, kind === 'fixed' ? majorToMinor(value, currency) : percent),
      min_spend_minor: typed(minSpend, majorToMinor(minSpend, currency)),
      starts_at: isoOf(startsAt),
      expires_at: isoOf(expiresAt),
      usage_limit: typed(usageLimit, /^\d+$/.test(usageLimit.trim()) ? Number(usageLimit) : null) ?? null,
      active,
    });
    if (!parsed.success) {
      setInvalid(describeIssue(locale, parsed.error.issues[0]!, 'body'));
      return;
    }
    setInvalid(null);
    void save.act(parsed.data);
  };

  return (
    <section className="panel" aria-labelledby="coupon-editor-title">
      <div className="panel__head">
        <h2 id="coupon-editor-title">
          {coupon ? t('console.coupons.editTitle', { code: coupon.code }) : t('console.coupons.new')}
        </h2>
        <button type="button" className="button button--ghost" onClick={onClose}>
          {t('console.action.close')}
        </button>
      </div>
      <form
        className="stack"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        {locked ? <p className="coupon-locked">{t('console.coupons.locked')}</p> : null}
        <div className="form-row">
          <TextField
            id="coupon-code"
            label={t('console.coupons.code')}
            value={code}
            onValue={setCode}
            className="mono"
            autoCapitalize="characters"
            readOnly={locked}
          />
          <Field id="coupon-kind" label={t('console.coupons.kind')}>
            <select
              id="coupon-kind"
              value={kind}
              disabled={locked}
              onChange={(event) => setKind(event.target.value as CouponView['kind'])}
            >
              {COUPON_KINDS.map((option) => (
                <option key={option} value={option}>
                  {t(`console.coupons.kind.${option}`)}
                </option>
              ))}
            </select>
          </Field>
          <Field
            id="coupon-value"
            label={kind === 'percent' ? t('console.coupons.percent') : t('console.coupons.amount', { currency })}
          >
            <input
              id="coupon-value"
              inputMode="decimal"
              value={value}
              readOnly={locked}
              onChange={(event) => setValue(event.target.value)}
            />
          </Field>
          <TextField
            id="coupon-min-spend"
            label={t('console.coupons.minSpend', { currency })}
            value={minSpend}
            onValue={setMinSpend}
            inputMode="decimal"
          />
        </div>
        <div className="form-row">
          <TextField
            id="coupon-starts"
            label={t('console.coupons.startsAt')}
            value={startsAt}
            onValue={setStartsAt}
            type="datetime-local"
          />
          <TextField
            id="coupon-expires"
            label={t('console.coupons.expiresAt')}
            value={expiresAt}
            onValue={setExpiresAt}
            type="datetime-local"
          />
          <TextField
            id="coupon-limit"
            label={t('console.coupons.usageLimit')}
            value={usageLimit}
            onValue={setUsageLimit}
            inputMode="numeric"
            placeholder={t('console.coupons.usageLimitHint')}
          />
        </div>
        <label className="check">
          <input type="checkbox" checked={active} onChange={(event) => setActive(event.target.checked)} />
          <span>{t('console.coupons.active')}</span>
        </label>
        {invalid ? (
          <p className="field__error" role="alert">
            {invalid}
          </p>
        ) : null}
        <ErrorNotice error={save.error} />
        <div className="button-row">
          <button type="submit" className="button button--primary" disabled={save.busy}>
            {t('console.coupons.save')}
          </button>
        </div>
      </form>
    </section>
  );
}
