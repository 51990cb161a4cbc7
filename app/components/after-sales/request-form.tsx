import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import type { AfterSaleOptions } from '../../../server/domains/after-sales/after-sales.schemas';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { formatDate } from '~/lib/dates';
import { ImageUploads } from '../account/image-uploads';
import { SelectField, TextAreaField } from '../account/form-field';
import { AlertCircleIcon } from '../checkout/icons';
import { AmountText } from '../checkout/order-summary';
import { BusyButton } from '../ui/busy-button';
import { MinusIcon, PlusIcon, ReturnIcon, TruckIcon } from '../ui/icons';
import { LineThumb } from './case-parts';
import { fieldError, type AfterSaleFormAnswer } from './form-answer';
import { useEstimate } from './use-estimate';

type Line = AfterSaleOptions['lines'][number];
type AfterSaleType = AfterSaleOptions['types'][number];
type LineChoice = { selected: boolean; quantity: string; wanted: string };

const TYPE_ICONS: Record<AfterSaleType, React.ReactNode> = {
  10: <RefundIcon />,
  20: <ReturnIcon size={22} />,
  30: <TruckIcon size={22} />,
};

function RefundIcon() {
  return (
    <svg width={22} height={22} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.75} aria-hidden>
      <rect x="3" y="6" width="18" height="12" rx="2" />
      <path d="M3 10h18M7 15h3" strokeLinecap="round" />
    </svg>
  );
}

/** The quantity the buyer asks for on a line, as a number within 1 and what is still available. */
function quantityOf(choice: LineChoice, line: Line): number {
  return Math.min(Math.max(Math.floor(Number(choice.quantity)) || 1, 1), Math.max(line.available, 1));
}

/**
 * /{locale}/my/order/{id}/after-sale: what the buyer wants (only the types the order allows),
 * which lines and how many of each, why (photos where the reason needs them), and for an
 * exchange the option wanted instead; the refund the choice would bring shows as it changes.
 * A plain form posting to the route's action, which makes the case once per idempotency key.
 */
export function AfterSaleRequestPage({
  options,
  idempotencyKey,
  answer,
}: {
  options: AfterSaleOptions;
  idempotencyKey: string;
  answer: AfterSaleFormAnswer | undefined;
}) {
  const t = useT();
  const locale = useLocale();
  const orderPath = localePath(locale, `/my/order/${options.order_id}`);
  return (
    <div className="container checkout-page as-page">
      <Link to={orderPath} className="order-back">
        ← {t('afterSaleUi.backToOrder')}
      </Link>
      <header className="as-head">
        <p className="as-head__eyebrow">{t('afterSaleUi.orderNo', { orderNo: options.order_no })}</p>
        <h1 className="checkout-title">{t('afterSaleUi.request.title')}</h1>
        <p className="checkout-head__intro">
          {options.window_ends_at
            ? t('afterSaleUi.request.windowEnds', {
                date: formatDate(options.window_ends_at, locale),
                days: options.window_days,
              })
            : t('afterSaleUi.request.windowNotStarted', { days: options.window_days })}
        </p>
      </header>
      {options.eligible ? (
        <RequestForm options={options} idempotencyKey={idempotencyKey} answer={answer} />
      ) : (
        <div className="checkout-card as-refusal">
          <AlertCircleIcon size={28} />
          <p className="as-refusal__text" data-testid="after-sale-refusal">
            {options.refusal}
          </p>
          <Link to={orderPath} className="button button--secondary">
            {t('afterSaleUi.backToOrder')}
          </Link>
        </div>
      )}
    </div>
  );
}

function RequestForm({
  options,
  idempotencyKey,
  answer,
}: {
  options: AfterSaleOptions;
  idempotencyKey: string;
  answer: AfterSaleFormAnswer | undefined;
}) {
  const t = useT();
  const locale = useLocale();
  const navigation = useNavigation();
  const ids = useId();
  const errorRef = useRef<HTMLParagraphElement>(null);
  // Made when the page rendered; kept through revalidations so a second press sends the same key.
  const [key] = useState(idempotencyKey);
  const [type, setType] = useState<AfterSaleType | null>(options.types.length === 1 ? options.types[0]! : null);
  const open = options.lines.filter((line) => line.available > 0);
  const [choices, setChoices] = useState<Record<number, LineChoice>>(() =>
    Object.fromEntries(
      options.lines.map((line) => [
        line.order_item_id,
        // An order with one line left to ask about has it chosen already.
        { selected: open.length === 1 && line.available > 0, quantity: '1', wanted: '' },
      ]),
    ),
  );
  const [reason, setReason] = useState('');
  const [photos, setPhotos] = useState<string[]>([]);
  const chosenReason = options.reasons.find((item) => item.value === reason);
  const exchange = type === 30;
  const chosen = options.lines.filter((line) => choices[line.order_item_id]?.selected && line.available > 0);
  const units = chosen.reduce((sum, line) => sum + quantityOf(choices[line.order_item_id]!, line), 0);
  const estimated = useEstimate(
    chosen.length > 0 && !exchange
      ? {
          order_id: options.order_id,
          type: type ?? options.types[0]!,
          lines: chosen.map((line) => ({
            order_item_id: line.order_item_id,
            quantity: quantityOf(choices[line.order_item_id]!, line),
          })),
        }
      : null,
    locale,
  );
  const sending = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const formError = answer && !answer.ok && answer.intent === 'request' ? answer.error : undefined;
  const error = (field: string) => fieldError(answer, 'request', field);
  const view = { currency: options.currency, display_currency: options.display_currency };

  useEffect(() => {
    if (formError) errorRef.current?.focus();
  }, [answer, formError]);

  const update = (id: number, change: Partial<LineChoice>) =>
    setChoices((current) => ({ ...current, [id]: { ...current[id]!, ...change } }));

  return (
    <Form method="post" className="as-request" data-testid="after-sale-form">
      <input type="hidden" name="idempotency_key" value={key} />
      {formError ? (
        <p className="notice notice--error as-request__error" role="alert" tabIndex={-1} ref={errorRef}>
          <AlertCircleIcon size={18} />
          {formError}
        </p>
      ) : null}
      <div className="as-layout">
        <div className="checkout-main">
          <RequestStep id={`${ids}-type`} number={1} title={t('afterSaleUi.request.typeTitle')}>
            <div className="as-types" role="radiogroup" aria-labelledby={`${ids}-type`}>
              {options.types.map((value) => (
                <label key={value} className="as-type">
                  <input
                    type="radio"
                    name="type"
                    value={value}
                    checked={type === value}
                    onChange={() => setType(value)}
                    required
                  />
                  <span className="as-type__icon">{TYPE_ICONS[value]}</span>
                  <span className="as-type__text">
                    <span className="as-type__name">{t(`afterSale.type.${value}`)}</span>
                    <span className="as-type__hint">{t(`afterSaleUi.typeHint.${value}`)}</span>
                  </span>
                </label>
              ))}
            </div>
            <FieldError text={error('type')} />
          </RequestStep>

          <RequestStep id={`${ids}-lines`} number={2} title={t('afterSaleUi.request.linesTitle')}>
            <ul className="as-lines">
              {options.lines.map((line) => (
                <RequestLine
                  key={line.order_item_id}
                  line={line}
                  choice={choices[line.order_item_id]!}
                  exchange={exchange}
                  view={view}
                  onChange={(change) => update(line.order_item_id, change)}
                />
              ))}
            </ul>
            <FieldError text={error('lines')} />
          </RequestStep>

          <RequestStep id={`${ids}-why`} number={3} title={t('afterSaleUi.request.whyTitle')}>
            <div className="as-fields">
              <SelectField
                label={t('field.reason')}
                name="reason"
                value={reason}
                onChange={(event) => setReason(event.target.value)}
                error={error('reason')}
                required
                data-testid="after-sale-reason"
              >
                <option value="" disabled>
                  {t('afterSaleUi.request.chooseReason')}
                </option>
                {options.reasons.map((item) => (
                  <option key={item.value} value={item.value}>
                    {item.text}
                  </option>
                ))}
              </SelectField>
              <TextAreaField
                label={t('afterSaleUi.request.description')}
                name="description"
                rows={4}
                placeholder={t('afterSaleUi.request.descriptionPlaceholder')}
                error={error('description')}
              />
              <div className={`form-field${error('photos') ? ' form-field--invalid' : ''}`}>
                <span className="form-field__label" id={`${ids}-photos`}>
                  {t('field.photos')}{' '}
                  <span className={chosenReason?.needs_photos ? 'as-required' : 'as-optional'}>
                    {chosenReason?.needs_photos ? t('afterSaleUi.required') : t('afterSaleUi.optional')}
                  </span>
                </span>
                <ImageUploads
                  value={photos}
                  onChange={setPhotos}
                  label={t('field.photos')}
                  limit={9}
                  action="/upload?purpose=evidence"
                  tip={
                    chosenReason?.needs_photos
                      ? t('afterSaleUi.request.photosNeeded')
                      : t('afterSaleUi.request.photosTip')
                  }
                />
                {photos.map((url) => (
                  <input key={url} type="hidden" name="photos" value={url} />
                ))}
                <FieldError text={error('photos')} />
              </div>
            </div>
          </RequestStep>
        </div>

        <aside className="as-layout__aside">
          <section className="checkout-card as-summary" aria-labelledby={`${ids}-summary`}>
            <h2 className="checkout-card__title" id={`${ids}-summary`}>
              {t('afterSaleUi.request.summaryTitle')}
            </h2>
            <dl className="summary-list">
              <div>
                <dt>{t('field.type')}</dt>
                <dd>{type ? t(`afterSale.type.${type}`) : '—'}</dd>
              </div>
              <div>
                <dt>{t('field.lines')}</dt>
                <dd>{t('afterSaleUi.units', { count: units })}</dd>
              </div>
            </dl>
            <div className="as-estimate" aria-live="polite" data-testid="after-sale-estimate">
              {exchange ? (
                <p className="as-estimate__note">{t('afterSaleUi.request.exchangeNoRefund')}</p>
              ) : chosen.length === 0 ? (
                <p className="as-estimate__note">{t('afterSaleUi.request.chooseItems')}</p>
              ) : estimated.failed ? (
                <p className="as-estimate__note">{t('afterSaleUi.request.estimateUnavailable')}</p>
              ) : (
                <>
                  <span className="as-estimate__label">{t('afterSaleUi.estimatedRefund')}</span>
                  <span
                    className={`as-estimate__amount${estimated.loading ? ' is-loading' : ''}`}
                    aria-busy={estimated.loading}
                  >
                    {estimated.estimate ? <AmountText amount={estimated.estimate.refund} view={view} strong /> : '…'}
                  </span>
                </>
              )}
            </div>
            <p className="checkout-summary__note">{t('afterSaleUi.request.estimateNote')}</p>
            <BusyButton
              type="submit"
              className="button button--primary button--block"
              busy={sending}
              data-testid="after-sale-submit"
            >
              {t('afterSaleUi.request.submit')}
            </BusyButton>
          </section>
        </aside>
      </div>
    </Form>
  );
}

function FieldError({ text }: { text: string | undefined }) {
  return text ? (
    <p className="form-field__error as-field-error" role="alert">
      {text}
    </p>
  ) : null;
}

/** One order line: chosen or not, how many (up to what is still available), and for an exchange the option wanted. */
function RequestLine({
  line,
  choice,
  exchange,
  view,
  onChange,
}: {
  line: Line;
  choice: LineChoice;
  exchange: boolean;
  view: { currency: AfterSaleOptions['currency']; display_currency: AfterSaleOptions['display_currency'] };
  onChange: (change: Partial<LineChoice>) => void;
}) {
  const t = useT();
  const id = useId();
  const closed = line.available <= 0;
  const selected = choice.selected && !closed;
  return (
    <li
      className={`as-line${selected ? ' is-selected' : ''}${closed ? ' is-closed' : ''}`}
      data-testid="after-sale-line"
    >
      <label className="as-line__pick" htmlFor={`${id}-pick`}>
        <input
          id={`${id}-pick`}
          type="checkbox"
          name="item"
          value={line.order_item_id}
          checked={selected}
          disabled={closed}
          onChange={(event) => onChange({ selected: event.target.checked })}
        />
        <LineThumb image={line.image} size={64} />
        <span className="as-line__body">
          <span className="as-line__name">{line.name}</span>
          {line.properties ? <span className="as-line__props">{line.properties}</span> : null}
          <span className="as-line__meta">
            <AmountText amount={line.unit_price} view={view} />
            <span aria-hidden> · </span>
            {t('afterSaleUi.request.bought', { count: line.bought })}
          </span>
          {line.final_sale ? (
            <span className="as-line__final">
              <span className="tag as-tag--warning">{t('afterSaleUi.finalSale')}</span>
              <span className="as-line__final-text">{t('afterSaleUi.finalSaleHint')}</span>
            </span>
          ) : null}
          {closed ? <span className="as-line__closed">{t('afterSaleUi.request.lineTaken')}</span> : null}
        </span>
      </label>
      {selected ? (
        <div className="as-line__controls">
          <div className="as-line__quantity">
            <span className="as-line__control-label" id={`${id}-qty`}>
              {t('afterSaleUi.request.quantity')}
            </span>
            <LineStepper
              name={`quantity-${line.order_item_id}`}
              value={choice.quantity}
              max={line.available}
              labelledBy={`${id}-qty`}
              onChange={(quantity) => onChange({ quantity })}
            />
            <span className="as-line__available">{t('afterSaleUi.request.available', { count: line.available })}</span>
          </div>
          {exchange ? (
            line.exchange_options.length > 0 ? (
              <SelectField
                label={t('afterSaleUi.request.wanted')}
                name={`wanted-${line.order_item_id}`}
                value={choice.wanted}
                onChange={(event) => onChange({ wanted: event.target.value })}
                required
                className="as-line__wanted"
              >
                <option value="" disabled>
                  {t('afterSaleUi.request.chooseOption')}
                </option>
                {line.exchange_options.map((option) => (
                  <option key={option.sku_id} value={option.sku_id}>
                    {option.properties}
                  </option>
                ))}
              </SelectField>
            ) : (
              <p className="as-line__closed">{t('afterSaleUi.request.noExchangeOption')}</p>
            )
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

/**
 * A quantity between 1 and `max` for one of several lines (the product page's stepper has one
 * fixed field name and id); a plain number field underneath, so it posts without JavaScript.
 */
function LineStepper({
  name,
  value,
  max,
  labelledBy,
  onChange,
}: {
  name: string;
  value: string;
  max: number;
  labelledBy: string;
  onChange: (value: string) => void;
}) {
  const t = useT();
  const top = Math.max(max, 1);
  const quantity = Math.min(Math.max(Number(value) || 1, 1), top);
  const clamp = (next: number) => onChange(String(Math.min(Math.max(next, 1), top)));
  return (
    <div className="stepper stepper--small">
      <button
        type="button"
        className="stepper__button"
        aria-label={t('product.decrease')}
        disabled={quantity <= 1}
        onClick={() => clamp(quantity - 1)}
      >
        <MinusIcon size={16} />
      </button>
      <input
        name={name}
        className="stepper__input"
        type="number"
        inputMode="numeric"
        min={1}
        max={top}
        value={value}
        aria-labelledby={labelledBy}
        onChange={(event) => {
          const digits = event.target.value.replace(/\D/g, '');
          if (digits === '') onChange('');
          else clamp(Number(digits));
        }}
        onBlur={() => clamp(quantity)}
      />
      <button
        type="button"
        className="stepper__button"
        aria-label={t('product.increase')}
        disabled={quantity >= top}
        onClick={() => clamp(quantity + 1)}
      >
        <PlusIcon size={16} />
      </button>
    </div>
  );
}

/** One numbered step of the request form, named by its heading. */
function RequestStep({
  id,
  number,
  title,
  children,
}: {
  id: string;
  number: number;
  title: string;
  children: ReactNode;
}) {
  return (
    <section className="checkout-card as-step" aria-labelledby={id}>
      <h2 className="as-step__title" id={id}>
        <span className="as-step__no" aria-hidden>
          {number}
        </span>
        {title}
      </h2>
      {children}
    </section>
  );
}
