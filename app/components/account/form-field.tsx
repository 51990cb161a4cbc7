import { useId, useState } from 'react';
import { useT } from '~/lib/i18n';
import { EyeIcon, EyeOffIcon } from './account-icons';

/**
 * Every field of every storefront form (login, register, my account, the address dialog,
 * checkout's coupon and notes) is one of these, so labels, control heights and error lines
 * line up wherever two fields sit side by side. The error is tied to the control with
 * aria-describedby and aria-invalid, so a screen reader reads it with the field.
 */
interface FrameProps {
  label: string;
  error?: string;
  hint?: string;
  className?: string;
  /** Sits inside the field's frame, after the control: a show-password toggle, a Get code button. */
  end?: React.ReactNode;
}

/** The control's accessibility attributes, given the frame's ids. */
interface ControlIds {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

function Frame({
  label,
  error,
  hint,
  className,
  end,
  frame,
  control,
}: FrameProps & { frame?: string; control: (ids: ControlIds) => React.ReactNode }) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`form-field${error ? ' form-field--invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label className="form-field__label" htmlFor={id}>
        {label}
      </label>
      <div className={`form-field__control${frame ? ` form-field__control--${frame}` : ''}`}>
        {control({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
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

/** A field's props split in two: the frame's, and the rest for its control. */
function splitFrame<T extends FrameProps>({ label, error, hint, className, end, ...control }: T) {
  return [{ label, error, hint, className, end }, control] as const;
}

type InputProps = Omit<React.InputHTMLAttributes<HTMLInputElement>, 'ref'> & {
  ref?: React.Ref<HTMLInputElement>;
};

/** A one-line input: text, email, phone, code. */
export function TextField(props: InputProps & FrameProps) {
  const [frameProps, input] = splitFrame(props);
  return (
    <Frame
      {...frameProps}
      control={(ids) => (
        <input {...ids} className="form-field__input" data-autofocus={input.autoFocus ? '' : undefined} {...input} />
      )}
    />
  );
}

/** A password input with a show/hide toggle (SPEC section 2's register pane). */
export function PasswordField(props: InputProps & Omit<FrameProps, 'end'>) {
  const t = useT();
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      end={
        <button
          type="button"
          className="form-field__toggle"
          aria-pressed={visible}
          onClick={() => setVisible((value) => !value)}
        >
          {visible ? <EyeOffIcon size={20} /> : <EyeIcon size={20} />}
          <span className="sr-only">{t('account.password.show')}</span>
        </button>
      }
    />
  );
}

/** A choice from a list (country, province, city). */
export function SelectField({
  children,
  ...props
}: React.SelectHTMLAttributes<HTMLSelectElement> & Omit<FrameProps, 'end'>) {
  const [frameProps, select] = splitFrame(props);
  return (
    <Frame
      {...frameProps}
      frame="select"
      control={(ids) => (
        <select {...ids} className="form-field__input form-field__select" {...select}>
          {children}
        </select>
      )}
    />
  );
}

/** Several lines of text (order notes). */
export function TextAreaField(props: React.TextareaHTMLAttributes<HTMLTextAreaElement> & Omit<FrameProps, 'end'>) {
  const [frameProps, textarea] = splitFrame(props);
  return (
    <Frame
      {...frameProps}
      frame="multiline"
      control={(ids) => <textarea {...ids} className="form-field__input form-field__textarea" {...textarea} />}
    />
  );
}
