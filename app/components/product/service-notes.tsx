import type { MessageKey } from '../../../i18n';
import { useT } from '~/lib/i18n';
import { ReturnIcon, SupportIcon, TruckIcon } from '../ui/icons';

/** SPEC section 3's service notes, by number; note 3's text comes from the shipping rules. */
const NOTES: Record<number, [MessageKey, typeof TruckIcon]> = {
  1: ['service.fastAfterSale', SupportIcon],
  2: ['service.sevenDayReturn', ReturnIcon],
  4: ['service.freeShipping', TruckIcon],
};

/** The note whose text is the shipping promise the loader words. */
export const SHIPPING_PROMISE_NOTE = 3;

/**
 * Worded by the loader (shipping-promise.server.ts): a line per country, then the line for
 * anywhere (country '*'). A country's line stays hidden unless the head script
 * (server/shared/ship-to-hint.ts) knows the buyer ships there; then it shows, and hides the
 * general line after it.
 */
export type ShippingPromise = Array<{ country: string; text: string }>;

export function ServiceNotes({ notes, shipping }: { notes: number[]; shipping: ShippingPromise }) {
  const t = useT();
  const lines = notes.flatMap((note): Array<{ text: string; country?: string; Icon?: typeof TruckIcon }> => {
    const entry = NOTES[note];
    return note === SHIPPING_PROMISE_NOTE ? shipping : entry ? [{ text: t(entry[0]), Icon: entry[1] }] : [];
  });
  if (!lines.length) return null;
  return (
    <section className="service-notes" aria-labelledby="service-notes-title">
      <h2 className="sr-only" id="service-notes-title">
        {t('product.services')}
      </h2>
      <ul className="service-notes__list" role="list">
        {lines.map(({ text, country, Icon = TruckIcon }) => (
          <li key={text} className="service-note" data-ship-promise={country}>
            <Icon size={18} />
            {text}
          </li>
        ))}
      </ul>
    </section>
  );
}
