import type { DutiesView } from '../../../server/domains/duties/duties.schemas';
import type { Currency } from '../../../server/shared/money';
import type { AmountView } from '../../../server/shared/money.schemas';
import { Money } from './money';

type CurrencyView = { currency: Currency; display_currency: Currency };

/** An amount with its display-currency twin, as order-summary's (which renders this file's row, so it is not imported). */
function DutyAmount({ amount, view }: { amount: AmountView; view: CurrencyView }) {
  return (
    <Money
      amountMinor={amount.amount_minor}
      currency={view.currency}
      display={{ amountMinor: amount.display_amount_minor, currency: view.display_currency }}
    />
  );
}

/** The amount the duties line shows: what is paid with the order, else the estimate left for the carrier. */
function shownAmount(duties: DutiesView) {
  if (duties.charged.amount_minor > 0 || !duties.estimate) return duties.charged;
  return duties.estimate;
}

/**
 * The "Duties and import taxes" row of an order summary (`summary-list`), with what it means
 * underneath: paid now and nothing more on delivery, or an estimate payable to the carrier
 * (not part of the total). The texts come translated from the server.
 */
export function DutiesRow({ duties, view }: { duties: DutiesView; view: CurrencyView }) {
  const estimateOnly = duties.charged.amount_minor === 0;
  return (
    <div
      className={`summary-list__duties${estimateOnly ? ' summary-list__duties--estimate' : ''}`}
      data-testid="order-duties"
      data-incoterm={duties.incoterm}
    >
      <dt>{duties.label}</dt>
      <dd data-testid="order-duties-amount">
        {duties.estimate_hidden ? '—' : <DutyAmount amount={shownAmount(duties)} view={view} />}
      </dd>
      <dd className="summary-list__duties-note" data-testid="order-duties-note">
        {duties.note}
      </dd>
    </div>
  );
}

/** One line for pages that show only the total (the payment result): what of it is duties, and what that means. */
export function DutiesNote({ duties, view }: { duties: DutiesView; view: CurrencyView }) {
  return (
    <p className="duties-note" data-testid="order-duties">
      <span>
        {duties.label}
        {duties.estimate_hidden ? null : (
          <>
            {' '}
            <DutyAmount amount={shownAmount(duties)} view={view} />
          </>
        )}
      </span>
      <span className="duties-note__text" data-testid="order-duties-note">
        {duties.note}
      </span>
    </p>
  );
}
