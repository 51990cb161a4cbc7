import { useConsoleT } from '../lib/console-context';

/** The staff password rule (staffPasswordField: 12 to 128 characters), shown before and after a refusal. */
export function PasswordHint({ invalid }: { invalid: boolean }) {
  const t = useConsoleT();
  return (
    <p className={invalid ? 'field__error' : 'field__hint'} role={invalid ? 'alert' : undefined}>
      {t('console.form.password')}
    </p>
  );
}
