import { useT } from '~/lib/i18n';
import { MinusIcon, PlusIcon } from '../ui/icons';

/**
 * Quantity between 1 and `max`; typing clamps. `value` is a string so the field can be
 * empty for a moment while someone retypes it (it counts as 1).
 */
export function QuantityStepper({
  value,
  max,
  onChange,
}: {
  value: string;
  max: number;
  onChange: (value: string) => void;
}) {
  const t = useT();
  const disabled = max < 1;
  const quantity = Math.min(Math.max(Number(value) || 1, 1), Math.max(max, 1));
  const clamp = (next: number) => onChange(String(Math.min(Math.max(next, 1), Math.max(max, 1))));
  return (
    <div className="stepper">
      <button
        type="button"
        className="stepper__button"
        aria-label={t('product.decrease')}
        disabled={disabled || quantity <= 1}
        onClick={() => clamp(quantity - 1)}
      >
        <MinusIcon size={18} />
      </button>
      <input
        id="quantity"
        name="quantity"
        className="stepper__input"
        type="number"
        inputMode="numeric"
        min={1}
        max={Math.max(max, 1)}
        value={disabled ? '1' : value}
        disabled={disabled}
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
        disabled={disabled || quantity >= max}
        onClick={() => clamp(quantity + 1)}
      >
        <PlusIcon size={18} />
      </button>
    </div>
  );
}
