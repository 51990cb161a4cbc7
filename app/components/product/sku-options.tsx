import { useEffect, useState } from 'react';
import { useT } from '~/lib/i18n';
import { isAvailable, selectionSearch, type ChoiceProps } from './sku-selection';

/** Only plain colour notations reach a style attribute. */
const SAFE_COLOUR = /^[#\w(),.%\s-]+$/;

/**
 * One radio group per property. Each value is a link to `?sku=` (or `?v=`), so choosing
 * works without JavaScript; with it, the page updates in place. A value that leads only to
 * sold-out combinations, given the other choices, is disabled.
 */
export function SkuOptions({ product, selection, onChoose }: ChoiceProps) {
  const t = useT();
  // Roving focus needs the arrow keys below; until they work, every value stays tabbable.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  return product.property.map((property, index) => {
    const chosen = property.values.find((value) => value.id === selection[index]);
    const options = property.values.map((value) => ({
      value,
      available: isAvailable(product, selection, index, value.id),
    }));
    const tabStop = chosen?.id ?? options.find((option) => option.available)?.value.id;
    const labelId = `option-${property.id}`;

    function onKeyDown(event: React.KeyboardEvent<HTMLDivElement>) {
      const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
      if (event.key === ' ') {
        event.preventDefault();
        (event.target as HTMLElement).click();
      }
      if (!step) return;
      event.preventDefault();
      const links = [
        ...event.currentTarget.querySelectorAll<HTMLElement>('[role="radio"]:not([aria-disabled="true"])'),
      ];
      const next = links[(links.indexOf(event.target as HTMLElement) + step + links.length) % links.length];
      next?.focus();
      next?.click();
    }

    return (
      <div className="sku-option" key={property.id}>
        <p className="sku-option__label" id={labelId}>
          {property.name}
          {chosen ? <span className="sku-option__chosen">{chosen.name}</span> : null}
        </p>
        <div className="sku-option__values" role="radiogroup" aria-labelledby={labelId} onKeyDown={onKeyDown}>
          {options.map(({ value, available }) => {
            const checked = value.id === chosen?.id;
            const swatch = value.swatch && SAFE_COLOUR.test(value.swatch) ? value.swatch : null;
            const href = available
              ? selectionSearch(
                  product,
                  selection.map((id, i) => (i === index ? value.id : id)),
                )
              : undefined;
            return (
              <a
                key={value.id}
                href={href}
                role="radio"
                aria-checked={checked}
                aria-disabled={available ? undefined : true}
                aria-label={available ? undefined : t('product.unavailable', { name: value.name })}
                tabIndex={!hydrated || value.id === tabStop ? 0 : -1}
                className={`sku-value${swatch ? ' sku-value--swatch' : ''}`}
                title={swatch ? value.name : undefined}
                onClick={(event) => {
                  event.preventDefault();
                  if (available && !checked) onChoose(index, value.id);
                }}
              >
                {swatch ? (
                  <span className="sku-value__swatch" style={{ background: swatch }} aria-hidden="true" />
                ) : null}
                <span className="sku-value__name">{value.name}</span>
              </a>
            );
          })}
        </div>
      </div>
    );
  });
}
