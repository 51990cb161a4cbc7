import { useId } from 'react';
import { Link } from 'react-router';
import type { AfterSaleDetail } from '../../../server/domains/after-sales/after-sales.schemas';
import { formatPrice } from '../../../server/shared/money';
import type { MessageKey } from '../../../i18n';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { formatDate } from '~/lib/dates';
import { orderTabHref } from '~/lib/order-tabs';
import { CheckoutCard } from '../checkout/checkout-card';
import { AlertCircleIcon, CheckCircleIcon, ClockIcon } from '../checkout/icons';
import { AmountText } from '../checkout/order-summary';
import { AppealForm, CancelMove, ConfirmedMove, TrackingForm } from './case-actions';
import { caseTone, CaseStatusChip, LineThumb, PhotoThumbs } from './case-parts';
import type { AfterSaleFormAnswer } from './form-answer';

type CaseState = AfterSaleDetail['state'];
type StepKey = 'requested' | 'approved' | 'sent' | 'received' | 'refunded' | 'shipped' | 'done';

/** The milestones of each type, each reached once the case has been in one of its states. */
const STEPS: Record<AfterSaleDetail['type'], Array<{ key: StepKey; states: CaseState[] }>> = {
  10: [
    { key: 'requested', states: ['requested'] },
    { key: 'approved', states: ['approved'] },
    { key: 'refunded', states: ['completed'] },
  ],
  20: [
    { key: 'requested', states: ['requested'] },
    { key: 'approved', states: ['approved', 'awaiting_parcel'] },
    { key: 'sent', states: ['in_transit'] },
    { key: 'received', states: ['received'] },
    { key: 'refunded', states: ['completed'] },
  ],
  30: [
    { key: 'requested', states: ['requested'] },
    { key: 'approved', states: ['awaiting_parcel'] },
    { key: 'sent', states: ['in_transit'] },
    { key: 'received', states: ['received'] },
    { key: 'shipped', states: ['exchange_shipped'] },
    { key: 'done', states: ['completed'] },
  ],
};

/** What the case's deadline means in its state; other states have none worth telling the buyer. */
const DEADLINE_TEXTS: Partial<Record<CaseState, MessageKey>> = {
  requested: 'afterSaleUi.deadline.requested',
  awaiting_parcel: 'afterSaleUi.deadline.awaiting_parcel',
  rejected: 'afterSaleUi.deadline.rejected',
  exchange_shipped: 'afterSaleUi.deadline.exchange_shipped',
};

/**
 * /{locale}/my/after-sale/{id}: where the case stands (SPEC's status, the state in words, the
 * milestones), what the buyer has to do next (send the parcel back, appeal, confirm the
 * replacement), the lines with their refunds, the refunds paid, the request itself with its
 * photos, and the timeline with the shop's messages, oldest first.
 */
export function AfterSaleCasePage({
  detail,
  answer,
}: {
  detail: AfterSaleDetail;
  answer: AfterSaleFormAnswer | undefined;
}) {
  const t = useT();
  const locale = useLocale();
  const deadlineText = DEADLINE_TEXTS[detail.state];
  const showDeadline = deadlineText && detail.deadline && (detail.state !== 'rejected' || detail.can_appeal);
  const view = { currency: detail.currency, display_currency: detail.display_currency };
  return (
    <div className="container checkout-page as-page" data-testid="after-sale-case" data-state={detail.state}>
      <Link to={orderTabHref(localePath(locale, '/my/order'), 'after_sales')} className="order-back">
        ← {t('afterSaleUi.backToList')}
      </Link>
      <header className="as-hero">
        <div className="as-hero__top">
          <CaseStatusChip item={detail} large />
          <span className="as-hero__no">{t('afterSaleUi.caseNo', { caseNo: detail.case_no })}</span>
        </div>
        <h1 className="checkout-title as-hero__title" data-testid="after-sale-state">
          {detail.state_text}
        </h1>
        <p className="as-hero__meta">
          <span>{detail.type_text}</span>
          <span aria-hidden>·</span>
          <Link to={localePath(locale, `/my/order/${detail.order_id}`)}>
            {t('afterSaleUi.orderNo', { orderNo: detail.order_no })}
          </Link>
          <span aria-hidden>·</span>
          <span>{t('afterSaleUi.requestedOn', { date: formatDate(detail.created_at, locale) })}</span>
        </p>
        {showDeadline ? (
          <p className="as-hero__deadline">
            <ClockIcon size={16} />
            {t(deadlineText, { date: formatDate(detail.deadline!, locale) })}
          </p>
        ) : null}
      </header>
      {answer ? (
        <p
          className={`notice ${answer.ok ? 'as-notice--success' : 'notice--error'}`}
          role={answer.ok ? 'status' : 'alert'}
          data-testid="after-sale-answer"
        >
          {answer.ok ? <CheckCircleIcon size={18} /> : <AlertCircleIcon size={18} />}
          {answer.ok ? answer.message : answer.error}
        </p>
      ) : null}
      <Milestones detail={detail} />

      <div className="as-layout as-case">
        <div className="checkout-main">
          <NextStep detail={detail} answer={answer} />
          <CheckoutCard id="as-lines" title={t('afterSaleUi.case.items')}>
            <ul className="as-case-lines">
              {detail.lines.map((line) => (
                <li key={line.id} className="as-case-line">
                  <LineThumb image={line.image} size={64} />
                  <div className="as-case-line__body">
                    <Link className="as-line__name" to={localePath(locale, `/product/${line.product_id}`)}>
                      {line.name}
                    </Link>
                    {line.properties ? <span className="as-line__props">{line.properties}</span> : null}
                    {line.wanted ? (
                      <span className="as-case-line__wanted">
                        {t('afterSaleUi.case.wanted', { option: line.wanted.properties })}
                      </span>
                    ) : null}
                    {line.accepted_quantity !== null ? (
                      <span className="as-line__props">
                        {t('afterSaleUi.case.checked', {
                          accepted: line.accepted_quantity,
                          damaged: line.damaged_quantity ?? 0,
                        })}
                      </span>
                    ) : null}
                  </div>
                  <div className="as-case-line__side">
                    <span className="line__qty">{t('confirm.qty', { count: line.quantity })}</span>
                    {detail.type !== 30 ? <AmountText amount={line.refund} view={view} /> : null}
                  </div>
                </li>
              ))}
            </ul>
            {detail.type !== 30 ? (
              <dl className="summary-list as-amounts">
                <div>
                  <dt>{t('afterSaleUi.estimatedRefund')}</dt>
                  <dd>
                    <AmountText amount={detail.estimate} view={view} />
                  </dd>
                </div>
                {detail.approved ? (
                  <div className="summary-list__total">
                    <dt>
                      {t('afterSaleUi.case.approved')}
                      {detail.includes_shipping ? (
                        <span className="as-amounts__note">{t('afterSaleUi.case.includesShipping')}</span>
                      ) : null}
                    </dt>
                    <dd data-testid="after-sale-approved">
                      <AmountText amount={detail.approved} view={view} strong />
                    </dd>
                  </div>
                ) : null}
              </dl>
            ) : null}
            {detail.refunds.length > 0 ? (
              <ul className="as-refunds" data-testid="after-sale-refunds">
                {detail.refunds.map((refund) => {
                  const amount = formatPrice(
                    { amountMinor: refund.amount.amount_minor, currency: detail.currency },
                    'symbol',
                    locale,
                  );
                  return (
                    <li key={refund.id} className={`as-refund as-refund--${refund.status}`}>
                      {refund.status === 'succeeded' && refund.succeeded_at
                        ? t('order.refundedOn', { amount, date: formatDate(refund.succeeded_at, locale) })
                        : t('afterSaleUi.case.refundStatus', { amount, status: refund.status_text })}
                    </li>
                  );
                })}
              </ul>
            ) : null}
          </CheckoutCard>

          <CheckoutCard id="as-request" title={t('afterSaleUi.case.request')}>
            <dl className="detail-list">
              <div>
                <dt>{t('field.type')}</dt>
                <dd>{detail.type_text}</dd>
              </div>
              <div>
                <dt>{t('field.reason')}</dt>
                <dd>{detail.reason_text}</dd>
              </div>
              {detail.description ? (
                <div>
                  <dt>{t('afterSaleUi.request.description')}</dt>
                  <dd className="as-prewrap">{detail.description}</dd>
                </div>
              ) : null}
            </dl>
            {detail.photos.length > 0 ? (
              <div className="as-request-photos">
                <h3 className="as-subtitle">{t('field.photos')}</h3>
                <PhotoThumbs photos={detail.photos} label={t('field.photos')} />
              </div>
            ) : null}
          </CheckoutCard>
          {detail.can_cancel ? <CancelMove caseNo={detail.case_no} /> : null}
        </div>

        <aside className="checkout-main as-layout__aside">
          <CheckoutCard id="as-timeline" title={t('afterSaleUi.case.timeline')}>
            <Timeline detail={detail} />
          </CheckoutCard>
        </aside>
      </div>
    </div>
  );
}

/** The case's milestones as a row of steps (on narrow screens the current one named below); none once it was withdrawn or refused. */
function Milestones({ detail }: { detail: AfterSaleDetail }) {
  const t = useT();
  if (detail.state === 'rejected' || detail.state === 'cancelled' || detail.state === 'closed') return null;
  const visited = new Set(detail.timeline.map((entry) => entry.state));
  visited.add(detail.state);
  const steps = STEPS[detail.type].map((step) => ({ ...step, reached: step.states.some((s) => visited.has(s)) }));
  const current = steps.findLastIndex((step) => step.reached);
  const currentStep = steps[current];
  return (
    <div className="as-steps">
      <ol className="as-steps__list" aria-label={t('afterSaleUi.case.progress')}>
        {steps.map((step, index) => (
          <li
            key={step.key}
            className={`as-steps__item${step.reached ? ' is-done' : ''}${index === current ? ' is-current' : ''}`}
            aria-current={index === current ? 'step' : undefined}
          >
            <span className="as-steps__dot" aria-hidden />
            <span className="as-steps__label">{t(`afterSaleUi.step.${step.key}`)}</span>
          </li>
        ))}
      </ol>
      {/* Narrow screens show this line instead of a label under every dot. */}
      {currentStep ? (
        <p className="as-steps__caption" aria-hidden>
          {t('afterSaleUi.case.stepOf', {
            step: current + 1,
            steps: steps.length,
            name: t(`afterSaleUi.step.${currentStep.key}`),
          })}
        </p>
      ) : null}
    </div>
  );
}

/** What the buyer has to do or know now: the return address and tracking form, the replacement, the refusal and its appeal. */
function NextStep({ detail, answer }: { detail: AfterSaleDetail; answer: AfterSaleFormAnswer | undefined }) {
  const t = useT();
  const id = useId();
  const cards: React.ReactNode[] = [];
  if (detail.state === 'rejected') {
    cards.push(
      <section
        key="rejected"
        className="checkout-card as-callout as-callout--rejected"
        aria-labelledby={`${id}-rejected`}
        data-testid="after-sale-rejection"
      >
        <h2 className="checkout-card__title" id={`${id}-rejected`}>
          {t('afterSaleUi.case.rejectedTitle')}
        </h2>
        {detail.rejection_text ? <p className="as-callout__lead">{detail.rejection_text}</p> : null}
        {detail.shop_message ? <ShopMessage text={detail.shop_message} captioned /> : null}
        {detail.can_appeal ? (
          <>
            <p className="as-callout__text">{t('afterSaleUi.case.appealIntro')}</p>
            <AppealForm answer={answer} />
          </>
        ) : null}
      </section>,
    );
  } else if (detail.shop_message) {
    cards.push(
      <section key="message" className="checkout-card as-callout" aria-labelledby={`${id}-message`}>
        <h2 className="checkout-card__title" id={`${id}-message`}>
          {t('afterSaleUi.case.shopMessage')}
        </h2>
        <ShopMessage text={detail.shop_message} />
      </section>,
    );
  }
  if (detail.can_add_tracking || detail.return_address) {
    cards.push(
      <section
        key="return"
        className="checkout-card as-callout as-callout--action"
        aria-labelledby={`${id}-return`}
        data-testid="after-sale-return"
      >
        <h2 className="checkout-card__title" id={`${id}-return`}>
          {t('afterSaleUi.case.returnTitle')}
        </h2>
        {detail.return_address ? (
          <>
            <p className="as-callout__text">{t('afterSaleUi.case.returnIntro', { caseNo: detail.case_no })}</p>
            <address className="as-address" data-testid="after-sale-return-address">
              {detail.return_address}
            </address>
          </>
        ) : null}
        {detail.can_add_tracking ? <TrackingForm answer={answer} /> : null}
      </section>,
    );
  }
  if (detail.exchange_shipment) {
    const shipment = detail.exchange_shipment;
    cards.push(
      <section
        key="exchange"
        className={`checkout-card as-callout${detail.can_confirm_exchange ? ' as-callout--action' : ''}`}
        aria-labelledby={`${id}-exchange`}
        data-testid="after-sale-exchange"
      >
        <h2 className="checkout-card__title" id={`${id}-exchange`}>
          {t('afterSaleUi.case.replacement')}
        </h2>
        <dl className="detail-list">
          <div>
            <dt>{t('field.carrier')}</dt>
            <dd>{shipment.carrier_name}</dd>
          </div>
          <div>
            <dt>{t('field.tracking_no')}</dt>
            <dd className="as-mono">
              {shipment.tracking_url ? (
                <a href={shipment.tracking_url} target="_blank" rel="noreferrer noopener">
                  {shipment.tracking_no}
                </a>
              ) : (
                shipment.tracking_no
              )}
            </dd>
          </div>
        </dl>
        {detail.can_confirm_exchange ? (
          <>
            <p className="as-callout__text">{t('afterSaleUi.case.replacementIntro')}</p>
            <ConfirmedMove
              intent="confirm"
              variant="primary"
              label={t('afterSaleUi.case.confirmExchange')}
              title={t('afterSaleUi.case.confirmExchangeTitle')}
              text={t('afterSaleUi.case.confirmExchangeText')}
              testId="after-sale-confirm"
            />
          </>
        ) : null}
      </section>,
    );
  }
  if (detail.return_tracking_no) {
    cards.push(
      <section key="parcel" className="checkout-card" aria-labelledby={`${id}-parcel`}>
        <h2 className="checkout-card__title" id={`${id}-parcel`}>
          {t('afterSaleUi.case.yourParcel')}
        </h2>
        <dl className="detail-list" data-testid="after-sale-return-tracking">
          <div>
            <dt>{t('field.carrier')}</dt>
            <dd>{detail.return_carrier}</dd>
          </div>
          <div>
            <dt>{t('field.tracking_no')}</dt>
            <dd className="as-mono">{detail.return_tracking_no}</dd>
          </div>
        </dl>
      </section>,
    );
  }
  return <>{cards}</>;
}

/** The shop's words, quoted; `captioned` says who wrote them where the card's title does not. */
function ShopMessage({ text, captioned = false }: { text: string; captioned?: boolean }) {
  const t = useT();
  return (
    <figure className="as-quote" data-testid="after-sale-shop-message">
      {captioned ? <figcaption className="as-quote__by">{t('afterSaleUi.case.fromShop')}</figcaption> : null}
      <blockquote className="as-prewrap">{text}</blockquote>
    </figure>
  );
}

const ACTOR_KEYS: Partial<Record<string, MessageKey>> = {
  buyer: 'afterSaleUi.actor.buyer',
  operator: 'afterSaleUi.actor.operator',
};

/** The case's history, oldest first; the last entry is where it stands. Messages are quoted with who wrote them. */
function Timeline({ detail }: { detail: AfterSaleDetail }) {
  const t = useT();
  const locale = useLocale();
  const last = detail.timeline.length - 1;
  return (
    <ol className="as-timeline" data-tone={caseTone(detail.state)} data-testid="after-sale-timeline">
      {detail.timeline.map((entry, index) => {
        const actor = ACTOR_KEYS[entry.actor];
        return (
          <li key={`${entry.at}-${index}`} className={`as-timeline__item${index === last ? ' is-current' : ''}`}>
            <span className="as-timeline__text">{entry.text}</span>
            {entry.message ? (
              <span className="as-timeline__message">
                {actor ? <span className="as-timeline__actor">{t(actor)}</span> : null}
                <span className="as-prewrap">{entry.message}</span>
              </span>
            ) : null}
            <time className="as-timeline__time" dateTime={entry.at}>
              {formatDate(entry.at, locale)}
            </time>
          </li>
        );
      })}
    </ol>
  );
}
