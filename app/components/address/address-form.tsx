import { useEffect, useId, useRef, useState } from 'react';
import { useFetcher } from 'react-router';
import { addressInput } from '../../../server/domains/addresses/addresses.schemas';
import { describeIssue } from '../../../server/shared/issue-messages';
import { postalCodeRequired } from '../../../server/shared/postal-codes';
import { api } from '~/lib/api-client';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { ModalDialog } from '../account/modal-dialog';
import { SelectField, TextField } from '../account/form-field';
import { useToast } from '../account/toast';
import type { AddressView as Address } from '../../../server/domains/addresses/addresses.schemas';
import type { AreaCountry, AreaOption } from '../../../server/domains/areas/areas.schemas';
import { BusyButton } from '../ui/busy-button';

export const ADDRESS_PATH = '/my/address';

type Field =
  | 'country_code'
  | 'province_id'
  | 'province'
  | 'city_id'
  | 'city'
  | 'detail'
  | 'postal_code'
  | 'contact_name'
  | 'contact_phone';
type Values = Record<Field, string> & { is_default: boolean };
type Errors = Partial<Record<Field, string>>;

function initialValues(address: Address | null, countries: AreaCountry[]): Values {
  return {
    country_code: address?.country_code ?? (countries.length === 1 ? (countries[0]?.id ?? '') : ''),
    province_id: address?.province_id ?? '',
    province: address && !address.province_id ? address.province : '',
    city_id: address?.city_id ?? '',
    city: address?.city ?? '',
    detail: address?.detail ?? '',
    postal_code: address?.postal_code ?? '',
    contact_name: address?.contact_name ?? '',
    contact_phone: address?.contact_phone ?? '',
    is_default: address?.is_default ?? false,
  };
}

/**
 * Cities of a province/state: the complete list from the tree where it has one (mainland
 * China), else `GET /v1/area/all?parent_id=`, which only suggests: towns missing from it
 * are typed in.
 */
function useCities(countries: AreaCountry[], countryCode: string, provinceId: string) {
  const locale = useLocale();
  const state = countries.find((country) => country.id === countryCode)?.states.find((item) => item.id === provinceId);
  const [fetched, setFetched] = useState<{ id: string; cities: AreaOption[] } | null>(null);
  useEffect(() => {
    if (!state || state.cities || fetched?.id === state.id) return;
    const controller = new AbortController();
    api<Array<{ id: string; name: string }>>('/area/all', {
      locale,
      body: { parent_id: state.id },
      signal: controller.signal,
    })
      .then((list) => setFetched({ id: state.id, cities: list.map(({ id, name }) => ({ id, name })) }))
      .catch(() => setFetched({ id: state.id, cities: [] }));
    return () => controller.abort();
  }, [state, fetched, locale]);
  if (!state) return [];
  return state.cities ?? (fetched?.id === state.id ? fetched.cities : []);
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
  return (
    <ModalDialog
      open={open}
      onClose={onClose}
      heading={{ title: address ? t('addressBook.editTitle') : t('addressBook.addTitle') }}
      className="modal--address"
    >
      <div className="modal__body">
        {open ? (
          <AddressForm
            key={address?.id ?? 'new'}
            address={address}
            countries={countries}
            onCancel={onClose}
            onSaved={onSaved}
          />
        ) : null}
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
  const cities = useCities(countries, values.country_code, values.province_id);
  const provinceAsList = !country || states.length > 0;
  const provinceChosen = provinceAsList ? Boolean(values.province_id) : Boolean(country);
  // Only a complete list (mainland China's provinces) is a choice; elsewhere any town can be typed.
  const province = states.find((item) => item.id === values.province_id);
  const cityIsText = province ? !province.cities?.length : !states.some((item) => item.cities?.length);
  const citySuggestions = useId();
  const busy = fetcher.state !== 'idle';

  /** What the form posts: area ids where the tree has them, typed names otherwise. */
  const payloadOf = (current: Values) => {
    const body: Record<string, string> = { country_code: current.country_code };
    if (states.length) body.province_id = current.province_id;
    else if (current.province.trim()) body.province = current.province;
    if (cityIsText) body.city = current.city;
    else body.city_id = current.city_id;
    for (const field of ['detail', 'postal_code', 'contact_name', 'contact_phone'] as const)
      body[field] = current[field];
    return body;
  };
  /** The API's address schema's messages, plus the parts the area tree makes required (the service checks those). */
  const messagesOf = (current: Values): Errors => {
    const messages: Errors = {};
    const parsed = addressInput.safeParse(payloadOf(current));
    for (const issue of parsed.error?.issues ?? [])
      messages[issue.path[0] as Field] ??= describeIssue(locale, issue, 'body');
    if (provinceAsList && !current.province_id) messages.province_id ??= t('address.provinceRequired');
    if (!cityIsText && !current.city_id) messages.city_id ??= t('address.cityRequired');
    if (cityIsText && !current.city.trim()) messages.city ??= t('address.cityRequired');
    return messages;
  };
  const check = (field: Field, current = values) => {
    const message = messagesOf(current)[field];
    setErrors((known) => ({ ...known, [field]: message }));
    return message;
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
    const fields: Field[] = [
      'country_code',
      'province_id',
      'city_id',
      'city',
      'detail',
      'contact_name',
      'contact_phone',
      'postal_code',
    ];
    const messages = messagesOf(values);
    setErrors((known) => ({ ...known, ...Object.fromEntries(fields.map((field) => [field, messages[field]])) }));
    const wrong = fields.filter((field) => messages[field]);
    const addressParts: Field[] = ['country_code', 'province_id', 'city_id', 'city', 'detail'];
    if (wrong.length) {
      setFormError(wrong.some((field) => addressParts.includes(field)) ? t('address.incomplete') : null);
      formRef.current?.querySelector<HTMLElement>(`[name="${wrong[0]}"]`)?.focus();
      return;
    }
    setFormError(null);
    const body: Record<string, string> = { intent: 'save', ...payloadOf(values) };
    if (address) body.id = String(address.id);
    if (values.is_default) body.is_default = 'on';
    void fetcher.submit(body, { method: 'post', action: localePath(locale, ADDRESS_PATH) });
  };

  return (
    <form ref={formRef} className="address-form" noValidate onSubmit={submit} data-testid="address-form">
      {formError ? (
        <p className="notice notice--error" role="alert">
          {formError}
        </p>
      ) : null}
      <SelectField
        label={t('addressBook.country')}
        error={errors.country_code}
        {...bindSelect('country_code')}
        data-testid="address-country"
      >
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
            data-testid="address-province"
          >
            <option value="">{t('addressBook.provincePlaceholder')}</option>
            {states.map((item) => (
              <option key={item.id} value={item.id}>
                {item.name}
              </option>
            ))}
          </SelectField>
        ) : (
          <TextField label={t('addressBook.province')} autoComplete="address-level1" {...bindText('province')} />
        )}
        {cityIsText ? (
          <TextField
            label={t('addressBook.city')}
            autoComplete="address-level2"
            hint={cities.length ? t('addressBook.cityHint') : undefined}
            list={cities.length ? citySuggestions : undefined}
            end={
              cities.length ? (
                <datalist id={citySuggestions}>
                  {cities.map((item) => (
                    <option key={item.id} value={item.name} />
                  ))}
                </datalist>
              ) : null
            }
            data-testid="address-city-text"
            {...bindText('city')}
          />
        ) : (
          <SelectField
            label={t('addressBook.city')}
            error={errors.city_id}
            disabled={!provinceChosen}
            {...bindSelect('city_id')}
            data-testid="address-city"
          >
            <option value="">{t('addressBook.cityPlaceholder')}</option>
            {cities.map((item) => (
              <option key={item.id} value={item.id}>
                {item.name}
              </option>
            ))}
          </SelectField>
        )}
      </div>
      <TextField
        label={t('addressBook.detail')}
        placeholder={t('addressBook.detailPlaceholder')}
        autoComplete="street-address"
        data-testid="address-detail"
        {...bindText('detail')}
      />
      <div className="address-form__row address-form__row--pair">
        <TextField
          label={t('addressBook.contactName')}
          autoComplete="name"
          data-testid="address-name"
          {...bindText('contact_name')}
        />
        <TextField
          label={t('addressBook.contactPhone')}
          type="tel"
          autoComplete="tel"
          hint={t('addressBook.phoneHint')}
          data-testid="address-phone"
          {...bindText('contact_phone')}
        />
      </div>
      <TextField
        label={t('addressBook.postalCode')}
        autoComplete="postal-code"
        className="address-form__postal"
        data-testid="address-postal"
        hint={country && !postalCodeRequired(country.id) ? t('addressBook.postalCodeOptional') : undefined}
        {...bindText('postal_code')}
      />
      <label className="choice address-form__default">
        <input
          type="checkbox"
          checked={values.is_default}
          onChange={(event) => setValues((current) => ({ ...current, is_default: event.target.checked }))}
        />
        <span>{t('addressBook.makeDefault')}</span>
      </label>
      <div className="address-form__actions">
        <button type="button" className="button button--secondary" onClick={onCancel}>
          {t('addressBook.cancel')}
        </button>
        <BusyButton type="submit" className="button button--primary" busy={busy} data-testid="address-save">
          {busy ? t('addressBook.saving') : t('addressBook.save')}
        </BusyButton>
      </div>
    </form>
  );
}
