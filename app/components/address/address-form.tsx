import { useEffect, useId, useRef, useState } from 'react';
import { useFetcher } from 'react-router';
import type { MessageKey } from '../../../i18n';
import { api } from '~/lib/api-client';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { ModalDialog } from '../account/modal-dialog';
import { TextField } from '../account/text-field';
import { useToast } from '../account/toast';
import { CloseIcon } from '../ui/icons';
import type { Address, AreaCountry, AreaOption } from './address-types';

export const ADDRESS_PATH = '/my/address';
const OTHER_CITY = '__other';

type Field = 'country_code' | 'province_id' | 'province' | 'city_id' | 'city' | 'detail' | 'postal_code' | 'contact_name' | 'contact_phone';
type Values = Record<Field, string> & { is_default: boolean };
type Errors = Partial<Record<Field, string>>;

/** Numbers abroad start with + and a country code; the server checks the number fully for the chosen country. */
const PHONE_PATTERN = /^\+?[\d\s()-]{5,24}$/;

function initialValues(address: Address | null, countries: AreaCountry[]): Values {
  return {
    country_code: address?.country_code ?? (countries.length === 1 ? countries[0].id : ''),
    province_id: address?.province_id ?? '',
    province: address && !address.province_id ? address.province : '',
    city_id: address?.city_id ?? (address && !address.city_id && address.city ? OTHER_CITY : ''),
    city: address && !address.city_id ? address.city : '',
    detail: address?.detail ?? '',
    postal_code: address?.postal_code ?? '',
    contact_name: address?.contact_name ?? '',
    contact_phone: address?.contact_phone ?? '',
    is_default: address?.is_default ?? false,
  };
}

/** Cities of a province/state: from the tree when it has them (China), else `GET /v1/area/all?parent_id=`. */
function useCities(countries: AreaCountry[], countryCode: string, provinceId: string) {
  const locale = useLocale();
  const state = countries.find((country) => country.id === countryCode)?.states.find((item) => item.id === provinceId);
  const [fetched, setFetched] = useState<{ id: string; cities: AreaOption[] } | null>(null);
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    if (!state || state.cities || fetched?.id === state.id) return;
    const controller = new AbortController();
    setLoading(true);
    api<Array<{ id: string; name: string }>>('/area/all', { locale, body: { parent_id: state.id }, signal: controller.signal })
      .then((list) => setFetched({ id: state.id, cities: list.map(({ id, name }) => ({ id, name })) }))
      .catch(() => setFetched({ id: state.id, cities: [] }))
      .finally(() => setLoading(false));
    return () => controller.abort();
  }, [state, fetched, locale]);
  if (!state) return { cities: [] as AreaOption[], complete: false, loading: false };
  if (state.cities) return { cities: state.cities, complete: true, loading: false };
  return { cities: fetched?.id === state.id ? fetched.cities : [], complete: false, loading: loading && fetched?.id !== state.id };
}

/**
 * Add or edit an address in a dialog (SPEC section 5's messages, checked when a field loses
 * focus and all together on submit). It posts to the address page's action, so the confirm
 * page can use it too; `onSaved` gets the stored address.
 */
export function AddressDialog({
  open,
  address,
  countries,
  onClose,
  onSaved,
}: {
  open: boolean;
  address: Address | null;
  countries: AreaCountry[];
  onClose: () => void;
  onSaved?: (address: Address) => void;
}) {
  const t = useT();
  const titleId = useId();
  return (
    <ModalDialog open={open} onClose={onClose} labelledBy={titleId} className="modal--address">
      <div className="modal__header">
        <h2 className="modal__title" id={titleId}>
          {address ? t('addressBook.editTitle') : t('addressBook.addTitle')}
        </h2>
        <button type="button" className="icon-button modal__close" aria-label={t('account.modal.close')} onClick={onClose}>
          <CloseIcon size={20} />
        </button>
      </div>
      <div className="modal__body">
        {open ? <AddressForm key={address?.id ?? 'new'} address={address} countries={countries} onCancel={onClose} onSaved={onSaved} /> : null}
      </div>
    </ModalDialog>
  );
}

function AddressForm({
  address,
  countries,
  onCancel,
  onSaved,
}: {
  address: Address | null;
  countries: AreaCountry[];
  onCancel: () => void;
  onSaved?: (address: Address) => void;
}) {
  const t = useT();
  const locale = useLocale();
  const toast = useToast();
  const fetcher = useFetcher<{ ok: boolean; error?: string; fields?: Record<string, string>; address?: Address }>();
  const [values, setValues] = useState<Values>(() => initialValues(address, countries));
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const country = countries.find((item) => item.id === values.country_code);
  const states = country?.states ?? [];
  const { cities, complete, loading } = useCities(countries, values.country_code, values.province_id);
  const provinceAsList = !country || states.length > 0;
  const provinceChosen = provinceAsList ? Boolean(values.province_id) : Boolean(country);
  const cityIsText = provinceChosen && !complete && (values.city_id === OTHER_CITY || (!loading && cities.length === 0));
  const busy = fetcher.state !== 'idle';

  const rule = (field: Field, current: Values): MessageKey | undefined => {
    switch (field) {
      case 'country_code':
        return current.country_code ? undefined : 'address.countryRequired';
      case 'province_id':
        return provinceAsList && !current.province_id ? 'address.provinceRequired' : undefined;
      case 'city_id':
        return !cityIsText && !current.city_id ? 'address.cityRequired' : undefined;
      case 'city':
        return cityIsText && !current.city.trim() ? 'address.cityRequired' : undefined;
      case 'detail':
        return current.detail.trim() ? undefined : 'address.detailRequired';
      case 'postal_code':
        return /^[A-Za-z0-9 -]{0,20}$/.test(current.postal_code.trim()) ? undefined : 'address.postalCodeInvalid';
      case 'contact_name':
        return current.contact_name.trim() ? undefined : 'address.nameRequired';
      case 'contact_phone':
        return PHONE_PATTERN.test(current.contact_phone.trim()) ? undefined : 'address.phoneInvalid';
      default:
        return undefined;
    }
  };
  const check = (field: Field, current = values) => {
    const key = rule(field, current);
    setErrors((known) => ({ ...known, [field]: key ? t(key) : undefined }));
    return key;
  };
  const set = (field: Field, value: string) => {
    setValues((current) => {
      const next = { ...current, [field]: value };
      if (field === 'country_code') Object.assign(next, { province_id: '', province: '', city_id: '', city: '' });
      if (field === 'province_id') Object.assign(next, { city_id: '', city: '' });
      if (errors[field]) check(field, next);
      return next;
    });
  };
  const bindText = (field: Field) => ({
    name: field,
    value: values[field],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => set(field, event.target.value),
    onBlur: () => check(field),
    error: errors[field],
  });
  const bindSelect = (field: Field) => ({
    name: field,
    value: values[field],
    onChange: (event: React.ChangeEvent<HTMLSelectElement>) => set(field, event.target.value),
    onBlur: () => check(field),
  });

  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return;
    if (fetcher.data.ok && fetcher.data.address) {
      toast.show(t('address.saved'), 'success');
      onSaved?.(fetcher.data.address);
      onCancel();
    } else if (!fetcher.data.ok) {
      setFormError(fetcher.data.error ?? null);
      if (fetcher.data.fields) setErrors((known) => ({ ...known, ...fetcher.data!.fields }));
    }
    // Only a new answer matters here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.state, fetcher.data]);

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const fields: Field[] = ['country_code', 'province_id', 'city_id', 'city', 'detail', 'contact_name', 'contact_phone', 'postal_code'];
    const wrong = fields.filter((field) => check(field));
    const addressParts: Field[] = ['country_code', 'province_id', 'city_id', 'city', 'detail'];
    if (wrong.length) {
      setFormError(wrong.some((field) => addressParts.includes(field)) ? t('address.incomplete') : null);
      formRef.current?.querySelector<HTMLElement>(`[name="${wrong[0]}"]`)?.focus();
      return;
    }
    setFormError(null);
    const body: Record<string, string> = { intent: 'save', country_code: values.country_code };
    if (address) body.id = String(address.id);
    if (states.length) body.province_id = values.province_id;
    else if (values.province.trim()) body.province = values.province.trim();
    if (cityIsText) body.city = values.city.trim();
    else body.city_id = values.city_id;
    for (const field of ['detail', 'postal_code', 'contact_name', 'contact_phone'] as const) body[field] = values[field].trim();
    if (values.is_default) body.is_default = 'on';
    fetcher.submit(body, { method: 'post', action: localePath(locale, ADDRESS_PATH) });
  };

  return (
    <form ref={formRef} className="address-form" noValidate onSubmit={submit} data-testid="address-form">
      {formError ? (
        <p className="notice notice--error" role="alert">
          {formError}
        </p>
      ) : null}
      <SelectField label={t('addressBook.country')} error={errors.country_code} {...bindSelect('country_code')} testId="address-country">
        <option value="">{t('addressBook.countryPlaceholder')}</option>
        {countries.map((item) => (
          <option key={item.id} value={item.id}>
            {item.name}
          </option>
        ))}
      </SelectField>
      <div className="address-form__row">
        {provinceAsList ? (
          <SelectField
            label={t('addressBook.province')}
            error={errors.province_id}
            disabled={!country}
            {...bindSelect('province_id')}
            testId="address-province"
          >
            <option value="">{t('addressBook.provincePlaceholder')}</option>
            {states.map((item) => (
              <option key={item.id} value={item.id}>
                {item.name}
              </option>
            ))}
          </SelectField>
        ) : (
          <TextField label={t('addressBook.province')} autoComplete="address-level1" maxLength={100} {...bindText('province')} />
        )}
        {!cityIsText || (!complete && cities.length > 0) ? (
          <SelectField
            label={t('addressBook.city')}
            error={cityIsText ? undefined : errors.city_id}
            disabled={!provinceChosen || loading}
            {...bindSelect('city_id')}
            testId="address-city"
          >
            <option value="">{loading ? t('addressBook.loading') : t('addressBook.cityPlaceholder')}</option>
            {cities.map((item) => (
              <option key={item.id} value={item.id}>
                {item.name}
              </option>
            ))}
            {!complete && cities.length > 0 ? <option value={OTHER_CITY}>{t('addressBook.cityOther')}</option> : null}
          </SelectField>
        ) : null}
        {cityIsText ? (
          <TextField
            label={cities.length ? t('addressBook.cityText') : t('addressBook.city')}
            autoComplete="address-level2"
            maxLength={100}
            data-testid="address-city-text"
            {...bindText('city')}
          />
        ) : null}
      </div>
      <TextField
        label={t('addressBook.detail')}
        placeholder={t('addressBook.detailPlaceholder')}
        autoComplete="street-address"
        maxLength={300}
        data-testid="address-detail"
        {...bindText('detail')}
      />
      <div className="address-form__row">
        <TextField label={t('addressBook.contactName')} autoComplete="name" maxLength={60} data-testid="address-name" {...bindText('contact_name')} />
        <TextField
          label={t('addressBook.contactPhone')}
          type="tel"
          autoComplete="tel"
          maxLength={30}
          hint={t('addressBook.phoneHint')}
          data-testid="address-phone"
          {...bindText('contact_phone')}
        />
      </div>
      <TextField label={t('addressBook.postalCode')} autoComplete="postal-code" maxLength={20} className="address-form__postal" {...bindText('postal_code')} />
      <label className="choice address-form__default">
        <input type="checkbox" checked={values.is_default} onChange={(event) => setValues((current) => ({ ...current, is_default: event.target.checked }))} />
        <span>{t('addressBook.makeDefault')}</span>
      </label>
      <div className="address-form__actions">
        <button type="button" className="button button--secondary" onClick={onCancel}>
          {t('addressBook.cancel')}
        </button>
        <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy} data-testid="address-save">
          {busy ? t('addressBook.saving') : t('addressBook.save')}
        </button>
      </div>
    </form>
  );
}

function SelectField({
  label,
  error,
  testId,
  children,
  ...select
}: React.SelectHTMLAttributes<HTMLSelectElement> & { label: string; error?: string; testId?: string }) {
  const id = useId();
  return (
    <div className={`form-field${error ? ' form-field--invalid' : ''}`}>
      <label className="form-field__label" htmlFor={id}>
        {label}
      </label>
      <div className="form-field__control form-field__control--select">
        <select
          id={id}
          className="form-field__input form-field__select"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          data-testid={testId}
          {...select}
        >
          {children}
        </select>
      </div>
      <p className="form-field__error" id={`${id}-error`} role={error ? 'alert' : undefined} hidden={!error}>
        {error}
      </p>
    </div>
  );
}
