import { useState, type ReactNode } from 'react';
import type { ClientLoaderFunctionArgs } from 'react-router';
import type { MessageKey } from '../../../i18n';
import type { LocalizedText } from '../../../i18n/locales';
import { CURRENCIES } from '../../../server/shared/money';
import type {
  SiteSettingsChanges,
  SiteSettingsEditorView,
} from '../../../server/domains/site-settings/site-settings-editor.schemas';
import { adminApi, requireStaff } from '../lib/admin-api';
import { useConsole, useConsoleT, usePageData } from '../lib/console-context';
import { Field, PageHeader, SkeletonRows, useAction } from '../components/ui';
import { SaveBar } from '../components/save-bar';
import { LocalizedInputs } from '../components/localized-inputs';
import { SiteImageField } from '../components/site-image-field';
import '../styles/content-settings.css';

export async function clientLoader({ request }: ClientLoaderFunctionArgs) {
  await requireStaff(request);
  return { settings: await adminApi<SiteSettingsEditorView>('/settings', { signal: request.signal }) };
}

export function HydrateFallback() {
  return <SkeletonRows />;
}

/** What the form holds: the settings as typed (countries as one line, timers as digits). */
interface Draft extends Omit<
  SiteSettingsEditorView,
  'country_list' | 'order_payment_timeout_minutes' | 'order_auto_confirm_days'
> {
  country_list: string;
  order_payment_timeout_minutes: string;
  order_auto_confirm_days: string;
}

function draftOf(settings: SiteSettingsEditorView): Draft {
  return {
    ...settings,
    country_list: settings.country_list.join(', '),
    order_payment_timeout_minutes: settings.order_payment_timeout_minutes?.toString() ?? '',
    order_auto_confirm_days: settings.order_auto_confirm_days?.toString() ?? '',
  };
}

/** The two order timers: the draft key, and its label. */
const TIMERS = [
  ['order_payment_timeout_minutes', 'console.settings.paymentTimeout'],
  ['order_auto_confirm_days', 'console.settings.autoConfirm'],
] as const satisfies ReadonlyArray<readonly [keyof Draft, MessageKey]>;

const countryCodes = (typed: string) =>
  typed
    .split(/[\s,，]+/)
    .map((code) => code.trim().toUpperCase())
    .filter(Boolean);

/** Typed digits as a number, empty as null (the server's default); anything else goes as typed so the API names the field. */
function timerOf(typed: string): number | null {
  return typed.trim() === '' ? null : Number(typed);
}

function changesOf(draft: Draft): SiteSettingsChanges {
  return {
    shop_name: draft.shop_name,
    logo: draft.logo,
    seo_image: draft.seo_image,
    seo_title: draft.seo_title,
    seo_keyword: draft.seo_keyword,
    seo_description: draft.seo_description,
    client_id: draft.client_id,
    analysis_code: draft.analysis_code,
    country_list: countryCodes(draft.country_list),
    display_currencies: draft.display_currencies,
    contact_email: draft.contact_email,
    contact_phone: draft.contact_phone,
    announcement: draft.announcement,
    order_payment_timeout_minutes: timerOf(draft.order_payment_timeout_minutes),
    order_auto_confirm_days: timerOf(draft.order_auto_confirm_days),
  };
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="card settings-section" aria-labelledby={`${id}-title`}>
      <h2 className="card__title" id={`${id}-title`}>
        {title}
      </h2>
      <div className="stack">{children}</div>
    </section>
  );
}

/**
 * General settings (docs/console.md): one form in sections, saved together. Every field the
 * API refuses comes back as one message naming it; nothing is saved then.
 */
export default function SettingsPage() {
  const { settings } = usePageData<typeof clientLoader>();
  const { locale } = useConsole();
  const t = useConsoleT();
  const [draft, setDraft] = useState(() => draftOf(settings));
  const [saved, setSaved] = useState(false);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setSaved(false);
    setDraft((current) => ({ ...current, [key]: value }));
  };
  const save = useAction(async () => {
    const answer = await adminApi<SiteSettingsEditorView>('/settings', { method: 'PATCH', body: changesOf(draft) });
    setDraft(draftOf(answer));
    setSaved(true);
  });
  const countryNames = new Intl.DisplayNames([locale === 'zh-cn' ? 'zh-Hans' : 'en'], { type: 'region' });
  const text = (key: keyof Draft) => ({
    value: draft[key] as string,
    onChange: (event: { target: { value: string } }) => set(key, event.target.value as never),
  });
  const localized = (key: 'shop_name' | 'seo_title' | 'seo_keyword' | 'seo_description' | 'announcement') => ({
    value: draft[key],
    onChange: (value: LocalizedText) => set(key, value),
  });
  const toggleCurrency = (currency: (typeof CURRENCIES)[number], on: boolean) =>
    set(
      'display_currencies',
      CURRENCIES.filter((code) =>
        code === currency ? on : code === settings.settlement_currency || draft.display_currencies.includes(code),
      ),
    );

  return (
    <>
      <PageHeader title={t('console.settings.title')} />
      <form
        className="settings-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save.act();
        }}
      >
        <Section id="settings-identity" title={t('console.settings.identity')}>
          <LocalizedInputs id="shop-name" label={t('field.shop_name')} {...localized('shop_name')} />
          <SiteImageField
            label={t('field.logo')}
            value={draft.logo}
            onChange={(url) => set('logo', url)}
            previewClass="settings-logo-preview"
            previewAlt={t('console.settings.logoPreview')}
          />
          <div className="pair">
            <Field id="settings-email" label={t('field.contact_email')}>
              <input id="settings-email" type="email" {...text('contact_email')} />
            </Field>
            <Field id="settings-phone" label={t('console.settings.contactPhone')}>
              <input id="settings-phone" type="tel" {...text('contact_phone')} />
            </Field>
          </div>
        </Section>

        <Section id="settings-seo" title={t('console.settings.seo')}>
          <SiteImageField
            label={t('field.seo_image')}
            value={draft.seo_image}
            onChange={(url) => set('seo_image', url)}
            previewClass="settings-icon-preview"
            previewAlt={t('console.settings.faviconPreview')}
          />
          <LocalizedInputs id="seo-title" label={t('field.seo_title')} {...localized('seo_title')} />
          <LocalizedInputs id="seo-keyword" label={t('field.seo_keyword')} {...localized('seo_keyword')} />
          <LocalizedInputs
            id="seo-description"
            label={t('field.seo_description')}
            multiline
            {...localized('seo_description')}
          />
        </Section>

        <Section id="settings-sign-in" title={t('console.settings.signIn')}>
          <Field id="settings-client" label={t('field.client_id')}>
            <input id="settings-client" {...text('client_id')} aria-describedby="settings-client-hint" />
            <p className="field__hint" id="settings-client-hint">
              {t('console.settings.clientIdHint')}
            </p>
          </Field>
        </Section>

        <Section id="settings-analytics" title={t('console.settings.analytics')}>
          <p className="settings-warning" role="note">
            {t('console.settings.analyticsWarning')}
          </p>
          <Field id="settings-analytics-code" label={t('field.analysis_code')}>
            <textarea
              id="settings-analytics-code"
              className="settings-code"
              rows={6}
              spellCheck={false}
              {...text('analysis_code')}
            />
          </Field>
        </Section>

        <Section id="settings-markets" title={t('console.settings.markets')}>
          <Field id="settings-countries" label={t('field.country_list')}>
            <input id="settings-countries" {...text('country_list')} aria-describedby="settings-countries-hint" />
            <p className="field__hint" id="settings-countries-hint">
              {t('console.settings.countriesHint')}
            </p>
            <ul className="chip-list" aria-live="polite">
              {countryCodes(draft.country_list).map((code, index) => {
                const name = /^[A-Z]{2}$/.test(code) ? countryNames.of(code) : undefined;
                return (
                  <li key={`${code}-${index}`} className={name && name !== code ? 'chip' : 'chip chip--bad'}>
                    {code} · {name && name !== code ? name : t('console.settings.unknownCountry')}
                  </li>
                );
              })}
            </ul>
          </Field>
          <fieldset className="check-group settings-currencies">
            <legend>{t('field.display_currencies')}</legend>
            {CURRENCIES.map((currency) => (
              <label key={currency} className="check">
                <input
                  type="checkbox"
                  checked={currency === settings.settlement_currency || draft.display_currencies.includes(currency)}
                  disabled={currency === settings.settlement_currency}
                  onChange={(event) => toggleCurrency(currency, event.target.checked)}
                />
                {currency}
              </label>
            ))}
            <p className="field__hint">
              {t('console.settings.currenciesHint', { currency: settings.settlement_currency })}
            </p>
          </fieldset>
        </Section>

        <Section id="settings-announcement" title={t('console.settings.announcement')}>
          <LocalizedInputs id="announcement" label={t('field.announcement')} {...localized('announcement')} />
          <p className="field__hint">{t('console.settings.announcementHint')}</p>
        </Section>

        <Section id="settings-timers" title={t('console.settings.timers')}>
          <div className="pair">
            {TIMERS.map(([key, label]) => (
              <Field key={key} id={`settings-${key}`} label={t(label)}>
                <input
                  id={`settings-${key}`}
                  inputMode="numeric"
                  placeholder={String(settings.timer_defaults[key])}
                  {...text(key)}
                />
                <p className="field__hint">
                  {t('console.settings.timerDefault', { value: settings.timer_defaults[key] })}
                </p>
              </Field>
            ))}
          </div>
          <p className="field__hint">{t('console.settings.timersHint')}</p>
        </Section>

        <SaveBar busy={save.busy} error={save.error} saved={saved ? t('console.settings.saved') : null} />
      </form>
    </>
  );
}
