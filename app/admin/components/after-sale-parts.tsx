import { useId, type ReactNode } from 'react';
import type { z } from 'zod';
import type { MessageKey, Translate } from '../../../i18n';
import type {
  AFTER_SALE_QUEUES,
  AdminAfterSaleDetail,
  adminAfterSalePage,
} from '../../../server/domains/after-sales/after-sales.schemas';
import type { PillTone } from '../lib/tones';
import { useConsoleT } from '../lib/console-context';
import { Pill } from './ui';

/**
 * What the after-sale desk's pages share: the shapes of the admin API's answers, the words and
 * tints of a case's type and state and the time left to its deadline (docs/console.md,
 * "After-sale desk"). Which moves a case allows comes from the server (`operator_can`).
 */

export type AfterSalePage = z.infer<typeof adminAfterSalePage>;
export type AfterSaleRow = AfterSalePage['records'][number];
export type AfterSaleQueue = (typeof AFTER_SALE_QUEUES)[number];
type CaseState = AdminAfterSaleDetail['state'];
type CaseType = AdminAfterSaleDetail['type'];

export const QUEUE_LABELS: Record<AfterSaleQueue, MessageKey> = {
  open: 'console.afterSales.queue.open',
  requested: 'console.afterSales.queue.requested',
  awaiting_parcel: 'console.afterSales.queue.awaiting_parcel',
  in_transit: 'console.afterSales.queue.in_transit',
  received: 'console.afterSales.queue.received',
  refunding: 'console.afterSales.queue.refunding',
  finished: 'console.afterSales.queue.finished',
  all: 'console.afterSales.queue.all',
};

export const CASE_TYPE_LABELS: Record<CaseType, MessageKey> = {
  10: 'console.afterSales.type.10',
  20: 'console.afterSales.type.20',
  30: 'console.afterSales.type.30',
};

const CASE_STATE_LABELS: Record<CaseState, MessageKey> = {
  requested: 'console.afterSales.state.requested',
  approved: 'console.afterSales.state.approved',
  awaiting_parcel: 'console.afterSales.state.awaiting_parcel',
  in_transit: 'console.afterSales.state.in_transit',
  received: 'console.afterSales.state.received',
  refunding: 'console.afterSales.state.refunding',
  exchange_shipped: 'console.afterSales.state.exchange_shipped',
  completed: 'console.afterSales.state.completed',
  rejected: 'console.afterSales.state.rejected',
  cancelled: 'console.afterSales.state.cancelled',
  closed: 'console.afterSales.state.closed',
};

/** Amber where the shop owes the next step, blue while it is under way, green done, red refused. */
const CASE_STATE_TONES: Record<CaseState, PillTone> = {
  requested: 'warning',
  approved: 'warning',
  received: 'warning',
  awaiting_parcel: 'neutral',
  in_transit: 'info',
  refunding: 'info',
  exchange_shipped: 'info',
  completed: 'success',
  rejected: 'danger',
  cancelled: 'neutral',
  closed: 'neutral',
};

export function CaseStatePill({ state }: { state: CaseState }) {
  const t = useConsoleT();
  return <Pill tone={CASE_STATE_TONES[state]}>{t(CASE_STATE_LABELS[state])}</Pill>;
}

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** "2 d 4 h", "3 h", "12 min": the largest two units that matter to someone working a queue. */
function durationText(t: Translate, ms: number): string {
  const days = Math.floor(ms / DAY);
  const hours = Math.floor((ms % DAY) / HOUR);
  if (days > 0) return t('console.afterSales.duration.days', { days, hours });
  if (hours > 0) return t('console.afterSales.duration.hours', { hours });
  return t('console.afterSales.duration.minutes', { minutes: Math.max(1, Math.floor(ms / 60_000)) });
}

export function timeLeftText(t: Translate, ms: number): string {
  return ms < 0
    ? t('console.afterSales.overdue', { time: durationText(t, -ms) })
    : t('console.afterSales.left', { time: durationText(t, ms) });
}

/** The time to the case's deadline as the API measured it: red once overdue, amber within 12 hours. */
export function TimeLeft({ ms, title }: { ms: number | null; title?: string }) {
  const t = useConsoleT();
  if (ms === null) return <span className="muted">—</span>;
  const urgency = ms < 0 ? ' desk-due--overdue' : ms < 12 * HOUR ? ' desk-due--soon' : '';
  return (
    <span className={`desk-due${urgency}`} title={title}>
      <svg viewBox="0 0 16 16" width="13" height="13" aria-hidden="true" focusable="false">
        <circle cx="8" cy="8" r="6.25" fill="none" stroke="currentColor" strokeWidth="1.5" />
        <path d="M8 4.5V8l2.5 1.5" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
      </svg>
      {timeLeftText(t, ms)}
    </span>
  );
}

/**
 * The operator's moves the case's state allows, as the lifecycle table has them
 * (server/domains/after-sales/after-sale-lifecycle.ts; the server refuses anything else):
 * answer a request; receive a parcel that was asked for; refund an approved refund or a
 * checked return; ship an exchange's replacement once its parcel is checked; refuse a
 * returned parcel that is not what was sold.
 */
/** A titled card of the console (the order page's look), with an optional link or button beside the title. */
export function AfterSaleCard({ title, extra, children }: { title: string; extra?: ReactNode; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className="card" aria-labelledby={headingId}>
      <div className="desk-card-head">
        <h2 className="card__title" id={headingId}>
          {title}
        </h2>
        {extra}
      </div>
      {children}
    </section>
  );
}
