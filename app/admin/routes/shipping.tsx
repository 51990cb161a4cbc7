import { useEffect, useMemo, useState } from 'react';
import type { ClientLoaderFunctionArgs } from 'react-router';
import type { z } from 'zod';
import type { Translate } from '../../../i18n';
import type { Locale } from '../../../i18n/locales';
import {
  shippingRulesBody,
  type shippingPreview,
  type ShippingPricingBody,
  type ShippingRulesBody,
  type ShippingRulesView,
} from '../../../server/domains/shipping/shipping-editor.schemas';
import { describeIssue } from '../../../server/shared/issue-messages';
import { adminApi, requireStaff } from '../lib/admin-api';
import { useConsole, useConsoleT, usePageData } from '../lib/console-context';
import { formatMoney, majorToMinor, minorToMajorText } from '../lib/format';
import { ErrorNotice, Field, Notice, PageHeader, TextField, useAction } from '../components/ui';
import '../styles/shipping-coupons.css';

export async function clientLoader({ request }: ClientLoaderFunctionArgs) {
  await requireStaff(request);
  return { rules: await adminApi<ShippingRulesView>('/shipping', { signal: request.signal }) };
}

export function HydrateFallback() {
  return <div className="skeleton skeleton--block" aria-hidden="true" />;
}

/** A pricing as the form holds it: weights in grams, money in major units, all as typed. */
interface PricingDraft {
  firstWeight: string;
  firstFee: string;
  additionalWeight: string;
  additionalFee: string;
  freeOver: string;
}
type ZoneDraft = PricingDraft & { countries: string };

const EMPTY_PRICING: PricingDraft = {
  firstWeight: '500',
  firstFee: '',
  additionalWeight: '500',
  additionalFee: '',
  freeOver: '',
};

function draftOf(pricing: ShippingPricingBody | null, currency: string): PricingDraft {
  if (!pricing) return EMPTY_PRICING;
  return {
    firstWeight: String(pricing.first_weight_grams),
    firstFee: minorToMajorText(pricing.first_fee_minor, currency),
    additionalWeight: String(pricing.additional_weight_grams),
    additionalFee: minorToMajorText(pricing.additional_fee_minor, currency),
    freeOver: pricing.free_over_minor === null ? '' : minorToMajorText(pricing.free_over_minor, currency),
  };
}

/** The draft as the API's body (zod checks it next); null when an amount is not a number. */
function bodyOf(zones: ZoneDraft[], rest: PricingDraft, currency: string): unknown {
  const pricing = (draft: PricingDraft) => {
    const fees = [draft.firstFee, draft.additionalFee].map((text) => majorToMinor(text, currency));
    const freeOver = draft.freeOver.trim() === '' ? null : majorToMinor(draft.freeOver, currency);
    if (fees.includes(null) || (draft.freeOver.trim() !== '' && freeOver === null)) return null;
    return {
      first_weight_grams: Number(draft.firstWeight),
      first_fee_minor: fees[0],
      additional_weight_grams: Number(draft.additionalWeight),
      additional_fee_minor: fees[1],
      free_over_minor: freeOver,
    };
  };
  const restPricing = pricing(rest);
  const zonePricings = zones.map((zone) => pricing(zone));
  if (!restPricing || zonePricings.includes(null)) return null;
  return {
    zones: zones.map((zone, index) => ({
      ...zonePricings[index],
      countries: zone.countries
        .split(/[\s,，、]+/)
        .map((code) => code.trim().toUpperCase())
        .filter(Boolean),
    })),
    rest_of_world: restPricing,
  };
}

type Checked = { ok: true; body: ShippingRulesBody } | { ok: false; message: string };

function checkDraft(t: Translate, locale: Locale, zones: ZoneDraft[], rest: PricingDraft, currency: string): Checked {
  const body = bodyOf(zones, rest, currency);
  if (body === null) return { ok: false, message: t('console.shipping.badAmount') };
  const parsed = shippingRulesBody.safeParse(body);
  if (!parsed.success) return { ok: false, message: describeIssue(locale, parsed.error.issues[0]!, 'body') };
  return { ok: true, body: parsed.data };
}

function countryNames(locale: Locale) {
  const names = new Intl.DisplayNames([locale === 'zh-cn' ? 'zh-CN' : 'en'], { type: 'region' });
  return (code: string) => {
    try {
      return names.of(code) ?? code;
    } catch {
      return code;
    }
  };
}

export default function ShippingPage() {
  const { rules } = usePageData<typeof clientLoader>();
  const { locale } = useConsole();
  const t = useConsoleT();
  const currency = rules.currency;
  const [zones, setZones] = useState<ZoneDraft[]>(() =>
    rules.zones.map((zone) => ({ ...draftOf(zone, currency), countries: zone.countries.join(', ') })),
  );
  const [rest, setRest] = useState<PricingDraft>(() => draftOf(rules.rest_of_world, currency));
  const [invalid, setInvalid] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const save = useAction(async (body: ShippingRulesBody) => {
    const saved = await adminApi<ShippingRulesView>('/shipping', { method: 'PUT', body });
    setZones(saved.zones.map((zone) => ({ ...draftOf(zone, currency), countries: zone.countries.join(', ') })));
    setRest(draftOf(saved.rest_of_world, currency));
    setDone(t('console.shipping.saved'));
  });
  const checked = checkDraft(t, locale, zones, rest, currency);
  const nameOf = useMemo(() => countryNames(locale), [locale]);
  const setZone = (index: number, change: Partial<ZoneDraft>) =>
    setZones((all) => all.map((zone, at) => (at === index ? { ...zone, ...change } : zone)));

  return (
    <>
      <PageHeader title={t('console.shipping.title')}>
        <p className="muted">{t('console.shipping.intro', { currency })}</p>
      </PageHeader>
      {done ? <Notice>{done}</Notice> : null}
      <form
        className="shipping-editor"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setDone(null);
          if (!checked.ok) {
            setInvalid(checked.message);
            return;
          }
          setInvalid(null);
          void save.act(checked.body);
        }}
      >
        {zones.map((zone, index) => (
          <fieldset key={index} className="card shipping-zone">
            <legend className="card__title">{t('console.shipping.zone', { number: index + 1 })}</legend>
            <Field id={`zone-${index}-countries`} label={t('console.shipping.countries')}>
              <input
                id={`zone-${index}-countries`}
                value={zone.countries}
                onChange={(event) => setZone(index, { countries: event.target.value })}
              />
              <p className="field__hint">
                {zone.countries
                  .split(/[\s,，、]+/)
                  .filter((code) => /^[a-z]{2}$/i.test(code))
                  .map((code) => nameOf(code.toUpperCase()))
                  .join(' · ')}
              </p>
            </Field>
            <PricingFields
              idPrefix={`zone-${index}`}
              draft={zone}
              currency={currency}
              onChange={(change) => setZone(index, change)}
            />
            <button
              type="button"
              className="button button--danger-ghost button--small"
              onClick={() => setZones((all) => all.filter((_, at) => at !== index))}
            >
              {t('console.shipping.removeZone')}
            </button>
          </fieldset>
        ))}
        <fieldset className="card shipping-zone">
          <legend className="card__title">{t('console.shipping.restOfWorld')}</legend>
          <p className="muted">{t('console.shipping.restOfWorldHint')}</p>
          <PricingFields
            idPrefix="rest"
            draft={rest}
            currency={currency}
            onChange={(change) => setRest((draft) => ({ ...draft, ...change }))}
          />
        </fieldset>
        {invalid ? (
          <p className="field__error" role="alert">
            {invalid}
          </p>
        ) : null}
        <ErrorNotice error={save.error} />
        <div className="button-row">
          <button
            type="button"
            className="button"
            onClick={() => setZones((all) => [...all, { ...EMPTY_PRICING, countries: '' }])}
          >
            {t('console.shipping.addZone')}
          </button>
          <button type="submit" className="button button--primary" disabled={save.busy}>
            {t('console.shipping.save')}
          </button>
        </div>
      </form>
      <ShippingPreview checked={checked} currency={currency} nameOf={nameOf} />
    </>
  );
}

function PricingFields({
  idPrefix,
  draft,
  currency,
  onChange,
}: {
  idPrefix: string;
  draft: PricingDraft;
  currency: string;
  onChange: (change: Partial<PricingDraft>) => void;
}) {
  const t = useConsoleT();
  const fields: Array<[keyof PricingDraft, string, 'numeric' | 'decimal']> = [
    ['firstWeight', t('console.shipping.firstWeight'), 'numeric'],
    ['firstFee', t('console.shipping.firstFee', { currency }), 'decimal'],
    ['additionalWeight', t('console.shipping.additionalWeight'), 'numeric'],
    ['additionalFee', t('console.shipping.additionalFee', { currency }), 'decimal'],
    ['freeOver', t('console.shipping.freeOver', { currency }), 'decimal'],
  ];
  return (
    <div className="shipping-pricing">
      {fields.map(([name, label, inputMode]) => (
        <Field key={name} id={`${idPrefix}-${name}`} label={label}>
          <input
            id={`${idPrefix}-${name}`}
            inputMode={inputMode}
            value={draft[name]}
            placeholder={name === 'freeOver' ? t('console.shipping.freeOverHint') : undefined}
            onChange={(event) => onChange({ [name]: event.target.value })}
          />
        </Field>
      ))}
    </div>
  );
}

/** "A 1.2 kg parcel to Germany costs ...": asked of the server, which prices it as checkout does. */
function ShippingPreview({
  checked,
  currency,
  nameOf,
}: {
  checked: Checked;
  currency: string;
  nameOf: (code: string) => string;
}) {
  const { locale } = useConsole();
  const t = useConsoleT();
  const [country, setCountry] = useState('DE');
  const [weight, setWeight] = useState('1.2');
  const [goods, setGoods] = useState('0');
  const [answer, setAnswer] = useState<z.infer<typeof shippingPreview> | null>(null);
  const weightGrams = Math.round(Number(weight) * 1000);
  const goodsMinor = majorToMinor(goods, currency);
  const rules = checked.ok ? JSON.stringify(checked.body) : null;
  const countryCode = country.trim().toUpperCase();

  useEffect(() => {
    setAnswer(null);
    if (rules === null || !(weightGrams >= 1) || goodsMinor === null || !/^[A-Z]{2}$/.test(countryCode)) return;
    const controller = new AbortController();
    adminApi<z.infer<typeof shippingPreview>>('/shipping/preview', {
      body: {
        rules: JSON.parse(rules) as unknown,
        country_code: countryCode,
        weight_grams: weightGrams,
        goods_minor: goodsMinor,
      },
      signal: controller.signal,
    }).then(setAnswer, () => undefined);
    return () => controller.abort();
  }, [rules, countryCode, weightGrams, goodsMinor]);

  return (
    <section className="card shipping-preview" aria-labelledby="shipping-preview-title">
      <h2 id="shipping-preview-title" className="card__title">
        {t('console.shipping.preview')}
      </h2>
      <p className="muted">{t('console.shipping.previewHint')}</p>
      <div className="shipping-pricing">
        <TextField
          id="preview-country"
          label={t('console.shipping.previewCountry')}
          value={country}
          onValue={setCountry}
          maxLength={2}
        />
        <TextField
          id="preview-weight"
          label={t('console.shipping.previewWeight')}
          value={weight}
          onValue={setWeight}
          inputMode="decimal"
        />
        <TextField
          id="preview-goods"
          label={t('console.shipping.previewGoods', { currency })}
          value={goods}
          onValue={setGoods}
          inputMode="decimal"
        />
      </div>
      <output className="shipping-preview__answer" htmlFor="preview-country preview-weight preview-goods">
        {answer ? (
          <>
            <strong data-testid="shipping-preview">
              {t('console.shipping.previewResult', {
                weight: weightGrams / 1000,
                country: nameOf(countryCode),
                fee: formatMoney(answer.fee_minor, currency, locale),
              })}
            </strong>{' '}
            <span className="muted">
              {answer.zone === null
                ? t('console.shipping.previewRest')
                : t('console.shipping.previewZone', { number: answer.zone + 1 })}
              {answer.free_over_reached ? ` ${t('console.shipping.previewFree')}` : ''}
            </span>
          </>
        ) : (
          '—'
        )}
      </output>
    </section>
  );
}
