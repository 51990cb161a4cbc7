import { useId, useState } from 'react';
import { useT } from '~/lib/i18n';
import { EyeIcon, EyeOffIcon } from './account-icons';

type InputProps = Omit<React.InputHTMLAttributes<HTMLInputElement>, 'ref'> & {
  ref?: React.Ref<HTMLInputElement>;
};

/**
 * A labelled input with its error underneath: the error is tied to the input with
 * aria-describedby and aria-invalid, so a screen reader reads it with the field. `end`
 * sits inside the field's frame (a show-password toggle, a Get code button).
 */
export function TextField({
  label,
  error,
  hint,
  end,
  className,
  ...input
}: InputProps & { label: string; error?: string; hint?: string; end?: React.ReactNode }) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`form-field${error ? ' form-field--invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label className="form-field__label" htmlFor={id}>
        {label}
      </label>
      <div className="form-field__control">
        <input
          id={id}
          className="form-field__input"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          data-autofocus={input.autoFocus ? '' : undefined}
          {...input}
        />
        {end}
      </div>
      {hint && !error ? (
        <p className="form-field__hint" id={hintId} role="status">
          {hint}
        </p>
      ) : null}
      <p className="form-field__error" id={errorId} role={error ? 'alert' : undefined} hidden={!error}>
        {error}
      </p>
    </div>
  );
}

/** A password field with a show/hide toggle (SPEC section 2's register pane). */
export function PasswordField(props: InputProps & { label: string; error?: string; hint?: string }) {
  const t = useT();
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      end={
        <button type="button" className="form-field__toggle" aria-pressed={visible} onClick={() => setVisible((value) => !value)}>
          {visible ? <EyeOffIcon size={20} /> : <EyeIcon size={20} />}
          <span className="sr-only">{t('account.password.show')}</span>
        </button>
      }
    />
  );
}
