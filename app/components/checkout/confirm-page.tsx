import { useEffect, useState } from 'react';
import { Form, Link, useNavigate, useNavigation, useSearchParams, useSubmit } from 'react-router';
import type { ConfirmView } from '../../../server/domains/checkout/checkout.schemas';
import { formatPrice } from '../../../server/shared/money';
import { priceStyleFor } from '~/lib/currency';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { useHydrated } from '../catalog/use-hydrated';
import { useToast } from '../account/toast';
import { AddressSummary } from '../address/address-card';
import { AddressDialog, ADDRESS_PATH } from '../address/address-form';
import type { AddressView as Address } from '../../../server/domains/addresses/addresses.schemas';
import type { AreaCountry } from '../../../server/domains/areas/areas.schemas';
import { PinIcon } from '../address/address-icons';
import { AlertCircleIcon, LockSmallIcon } from './icons';
import { TextAreaField, TextField } from '../account/form-field';
import { OrderInfo, OrderLines } from './order-summary';
import { CheckoutCard } from './checkout-card';

export interface ConfirmData {
  source: { kind: 'items'; skuId: number; quantity: number } | { kind: 'cart' } | null;
  addresses: Address[];
  countries: AreaCountry[];
  coupon: string;
  idempotencyKey: string;
  view: ConfirmView | null;
  error: string | null;
  couponError: string | null;
}

/** The hidden fields that say what is bought; every form on the page carries them. */
function SourceFields({ source }: { source: NonNullable<ConfirmData['source']> }) {
  return source.kind === 'cart' ? (
    <input type="hidden" name="from" value="cart" />
  ) : (
    <>
      <input type="hidden" name="sku_id" value={source.skuId} />
      <input type="hidden" name="quantity" value={source.quantity} />
    </>
  );
}

/** /{locale}/order/confirm_order: address, items, notes, coupon and the server-computed order info; Place order. */
/**
 * `refusal` is the last Place order's answer when it was refused; a new object each time, so the
 * same sentence twice (sold out, or the shop busy, on a second click) shows the toast again.
 */
export function ConfirmPage({ data, refusal }: { data: ConfirmData; refusal?: { error: string } }) {
  const t = useT();
  const locale = useLocale();
  const toast = useToast();
  const navigation = useNavigation();
  const placing = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const { view, source } = data;
  const [notes, setNotes] = useState('');

  useEffect(() => {
    if (refusal) toast.show(refusal.error, 'error');
  }, [refusal, toast]);

  if (!view || !source) {
    return (
      <div className="container checkout-page">
        <h1 className="checkout-title">{t('confirm.title')}</h1>
        <div className="empty-state">
          <span className="empty-state__icon">
            <AlertCircleIcon size={36} />
          </span>
          <p className="empty-state__title" data-testid="confirm-error">
            {data.error ?? t('confirm.nothing')}
          </p>
          <div className="result-card__actions">
            {source?.kind === 'cart' ? (
              <Link className="button button--secondary" to={localePath(locale, '/cart')}>
                {t('cart.view')}
              </Link>
            ) : null}
            <Link className="button button--primary" to={localePath(locale, '/')}>
              {t('cart.continue')}
            </Link>
          </div>
        </div>
      </div>
    );
  }

  const needsAddress = view.needs_address;
  return (
    <div className="container checkout-page">
      <header className="checkout-head">
        <h1 className="checkout-title">{t('confirm.title')}</h1>
      </header>
      <div className="checkout-layout">
        <div className="checkout-main">
          <AddressSection data={data} />
          <CheckoutCard id="confirm-items" title={t('confirm.items')}>
            <OrderLines lines={view.lines} view={view} testId="confirm-line" />
          </CheckoutCard>
          <section className="checkout-card" aria-labelledby="confirm-extras">
            <h2 className="sr-only" id="confirm-extras">
              {t('confirm.notes')}
            </h2>
            <CouponForm data={data} />
            <TextAreaField
              label={t('confirm.notes')}
              form="place-order"
              name="notes"
              rows={2}
              maxLength={500}
              placeholder={t('confirm.notesPlaceholder')}
              value={notes}
              onChange={(event) => setNotes(event.target.value)}
              data-testid="order-notes"
            />
          </section>
        </div>

        <CheckoutCard id="order-info" title={t('confirm.orderInfo')} as="aside" className="checkout-summary">
          <OrderInfo
            price={view}
            view={view}
            duties={view.duties}
            shippingNote={
              needsAddress ? (
                <span className="checkout-summary__note">{t('confirm.shippingAfterAddress')}</span>
              ) : undefined
            }
          />
          {view.display_currency !== view.currency ? (
            <p className="checkout-summary__note">
              {t('confirm.chargedIn', {
                amount: formatPrice(
                  { amountMinor: view.total.amount_minor, currency: view.currency },
                  priceStyleFor(locale),
                ),
                currency: view.currency,
                display: view.display_currency,
              })}
            </p>
          ) : null}
          {needsAddress ? (
            <p className="notice notice--warning" role="status">
              <AlertCircleIcon size={18} />
              {t('confirm.needAddress')}
            </p>
          ) : null}
          <Form method="post" id="place-order" replace onSubmit={(event) => placing && event.preventDefault()}>
            <SourceFields source={source} />
            <input type="hidden" name="idempotency_key" value={data.idempotencyKey} />
            {view.address ? <input type="hidden" name="address_id" value={view.address.id} /> : null}
            {view.coupon ? <input type="hidden" name="coupon_code" value={view.coupon.code} /> : null}
            <button
              type="submit"
              className="button button--primary button--large button--block"
              disabled={needsAddress || placing}
              aria-busy={placing}
              data-testid="place-order"
            >
              {placing ? t('confirm.placing') : t('confirm.place')}
            </button>
          </Form>
          <p className="secure-note">
            <LockSmallIcon size={14} />
            {t('confirm.secure')}
          </p>
        </CheckoutCard>
      </div>
    </div>
  );
}

/** The chosen address, or a choice among the saved ones (a GET form: the price follows the country), or an add button. */
function AddressSection({ data }: { data: ConfirmData }) {
  const t = useT();
  const locale = useLocale();
  const hydrated = useHydrated();
  const submit = useSubmit();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [choosing, setChoosing] = useState(false);
  const [adding, setAdding] = useState(false);
  const view = data.view!;
  const current = view.address;

  const chooseAddress = (address: Address) => {
    const next = new URLSearchParams(params);
    next.set('address_id', String(address.id));
    void navigate(`?${next}`, { replace: true, preventScrollReset: true });
  };

  return (
    <section className="checkout-card" aria-labelledby="confirm-address" data-testid="confirm-address">
      <div className="checkout-card__head">
        <h2 className="checkout-card__title" id="confirm-address">
          {t('confirm.address')}
        </h2>
        {current && data.addresses.length > 1 && !choosing ? (
          <button type="button" className="link-button" onClick={() => setChoosing(true)} data-testid="change-address">
            {t('confirm.changeAddress')}
          </button>
        ) : null}
      </div>
      {current && !choosing ? (
        <AddressSummary address={current} />
      ) : current ? (
        <Form
          method="get"
          replace
          preventScrollReset
          onChange={(event) => hydrated && submit(event.currentTarget, { replace: true, preventScrollReset: true })}
        >
          <SourceFields source={data.source!} />
          {data.coupon ? <input type="hidden" name="coupon" value={data.coupon} /> : null}
          <fieldset className="address-choices">
            <legend className="sr-only">{t('confirm.chooseAddress')}</legend>
            {data.addresses.map((address) => (
              <label className="address-choice" key={address.id}>
                <input type="radio" name="address_id" value={address.id} defaultChecked={address.id === current.id} />
                <AddressSummary address={address} />
              </label>
            ))}
          </fieldset>
          {!hydrated ? (
            <button type="submit" className="button button--secondary confirm-actions">
              {t('confirm.useAddress')}
            </button>
          ) : null}
        </Form>
      ) : (
        <div className="address-missing">
          <PinIcon size={24} />
          <p>{t('confirm.needAddress')}</p>
          <button
            type="button"
            className="button button--primary"
            onClick={() => setAdding(true)}
            data-testid="confirm-add-address"
          >
            {t('confirm.addAddress')}
          </button>
        </div>
      )}
      <div className="confirm-actions">
        {current ? (
          <button
            type="button"
            className="link-button"
            onClick={() => setAdding(true)}
            data-testid="confirm-new-address"
          >
            {t('addressBook.add')}
          </button>
        ) : null}
        <Link to={localePath(locale, ADDRESS_PATH)} className="link-button">
          {t('confirm.manageAddresses')}
        </Link>
      </div>
      <AddressDialog
        open={adding}
        address={null}
        countries={data.countries}
        onClose={() => setAdding(false)}
        onSaved={(address) => {
          setChoosing(false);
          chooseAddress(address);
        }}
      />
    </section>
  );
}

/** Coupon code: a GET form, so the loader prices it (and says why a code does not apply). */
function CouponForm({ data }: { data: ConfirmData }) {
  const t = useT();
  const view = data.view!;
  const [params] = useSearchParams();
  const keep = [...params.entries()].filter(([name]) => name !== 'coupon');
  if (view.coupon) {
    return (
      <Form method="get" replace preventScrollReset className="coupon-row">
        {keep.map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <p className="coupon-applied" data-testid="coupon-applied">
          {t('confirm.couponApplied', { code: view.coupon.code })}
        </p>
        <button type="submit" className="link-button">
          {t('confirm.couponRemove')}
        </button>
      </Form>
    );
  }
  return (
    <Form method="get" replace preventScrollReset className="coupon-form">
      {keep.map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <TextField
        label={t('confirm.coupon')}
        name="coupon"
        defaultValue={data.coupon}
        autoComplete="off"
        error={data.couponError ?? undefined}
        data-testid="coupon-input"
        end={
          <button type="submit" className="form-field__action">
            {t('confirm.couponApply')}
          </button>
        }
      />
    </Form>
  );
}
