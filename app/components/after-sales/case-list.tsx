import { Link } from 'react-router';
import type { AfterSaleSummary } from '../../../server/domains/after-sales/after-sales.schemas';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { formatDate } from '~/lib/dates';
import { AmountText } from '../checkout/order-summary';
import { caseTone, CaseStatusChip, LineThumb } from './case-parts';

/** My Orders' After-Sales tab: the buyer's cases, newest first, each a card leading to its page. */
export function AfterSaleCards({ cases }: { cases: AfterSaleSummary[] }) {
  return (
    <ul className="order-list" data-testid="after-sale-list">
      {cases.map((item) => (
        <AfterSaleCard key={item.id} item={item} />
      ))}
    </ul>
  );
}

function AfterSaleCard({ item }: { item: AfterSaleSummary }) {
  const t = useT();
  const locale = useLocale();
  const href = localePath(locale, `/my/after-sale/${item.id}`);
  const first = item.lines[0];
  const view = { currency: item.currency, display_currency: item.display_currency };
  const tone = caseTone(item.state);
  const voided = tone === 'rejected' || tone === 'muted';
  return (
    <li className="order-card as-card" data-testid="after-sale-card" data-case-no={item.case_no}>
      <div className="order-card__head">
        <span className="order-card__no">{t('afterSaleUi.caseNo', { caseNo: item.case_no })}</span>
        <span className="order-card__date">{formatDate(item.created_at, locale)}</span>
        <CaseStatusChip item={item} />
      </div>
      <Link to={href} className="order-card__body">
        <span className="order-card__images">
          {item.lines.slice(0, 4).map((line) => (
            <LineThumb key={line.id} image={line.image} size={64} />
          ))}
        </span>
        <span className="order-card__names">
          <span className="as-card__state">{item.state_text}</span>
          <span className="order-card__name as-card__product">{first?.name}</span>
          <span className="order-card__props">
            {item.type_text} · {t('afterSaleUi.units', { count: item.unit_count })}
          </span>
          <span className="order-card__props">{t('afterSaleUi.orderNo', { orderNo: item.order_no })}</span>
        </span>
        <span className="order-card__total">
          {item.type === 30 ? (
            <>
              <span className="order-card__total-label">{t('afterSaleUi.request.wanted')}</span>
              <span className="as-card__wanted">{first?.wanted?.properties ?? ''}</span>
            </>
          ) : (
            <>
              <span className="order-card__total-label">{t('afterSaleUi.estimatedRefund')}</span>
              {/* Struck through once the case was refused or withdrawn: that money is not coming. */}
              <span className={voided ? 'as-card__void' : undefined}>
                <AmountText amount={item.estimate} view={view} strong />
              </span>
            </>
          )}
        </span>
      </Link>
      <div className="order-card__foot">
        <Link to={href} className="link-button">
          {t('orders.details')}
        </Link>
      </div>
    </li>
  );
}

/** The order page's list of its cases: number, type and status, each leading to its page. */
export function OrderCases({ cases }: { cases: AfterSaleSummary[] }) {
  const locale = useLocale();
  return (
    <ul className="as-order-cases" data-testid="order-after-sales">
      {cases.map((item) => (
        <li key={item.id}>
          <Link to={localePath(locale, `/my/after-sale/${item.id}`)} className="as-order-case">
            <span className="as-order-case__main">
              <span className="as-order-case__no">{item.case_no}</span>
              <span className="as-order-case__type">
                {item.type_text} · {item.state_text}
              </span>
            </span>
            <CaseStatusChip item={item} />
          </Link>
        </li>
      ))}
    </ul>
  );
}
