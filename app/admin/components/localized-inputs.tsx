import type { LocalizedText } from '../../../i18n/locales';
import { useConsoleT } from '../lib/console-context';

/**
 * One text in both languages side by side, each marked when it is still empty (a missing
 * translation). `required` texts are refused by the API when a language is empty.
 */
export function LocalizedInputs({
  id,
  label,
  value,
  onChange,
  multiline = false,
  rows = 3,
}: {
  id: string;
  label: string;
  value: LocalizedText;
  onChange: (value: LocalizedText) => void;
  multiline?: boolean;
  rows?: number;
}) {
  const t = useConsoleT();
  return (
    <fieldset className="localized">
      <legend>{label}</legend>
      <div className="pair">
        {(['en', 'zh-cn'] as const).map((language) => {
          const fieldId = `${id}-${language}`;
          const missing = value[language].trim() === '';
          const props = {
            id: fieldId,
            lang: language === 'en' ? 'en' : 'zh-CN',
            value: value[language],
            'aria-describedby': missing ? `${fieldId}-missing` : undefined,
            onChange: (event: { target: { value: string } }) => onChange({ ...value, [language]: event.target.value }),
          };
          return (
            <div key={language} className="field">
              <label htmlFor={fieldId}>{t(language === 'en' ? 'console.lang.en' : 'console.lang.zh')}</label>
              {multiline ? <textarea rows={rows} {...props} /> : <input {...props} />}
              {missing ? (
                <p className="field__hint localized__missing" id={`${fieldId}-missing`}>
                  {t('console.content.missing')}
                </p>
              ) : null}
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
