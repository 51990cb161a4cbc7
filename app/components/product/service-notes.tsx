import type { MessageKey } from '../../../i18n';
import { useT } from '~/lib/i18n';
import { ReturnIcon, SupportIcon, TruckIcon } from '../ui/icons';

/** SPEC section 3's service notes, by number. */
const NOTES: Record<number, [MessageKey, typeof TruckIcon]> = {
  1: ['service.fastAfterSale', SupportIcon],
  2: ['service.sevenDayReturn', ReturnIcon],
  3: ['service.partialFreeShipping', TruckIcon],
  4: ['service.freeShipping', TruckIcon],
};

export function ServiceNotes({ notes }: { notes: number[] }) {
  const t = useT();
  const known = notes.flatMap((note) => {
    const entry = NOTES[note];
    return entry ? [{ note, entry }] : [];
  });
  if (!known.length) return null;
  return (
    <section className="service-notes" aria-labelledby="service-notes-title">
      <h2 className="sr-only" id="service-notes-title">
        {t('product.services')}
      </h2>
      <ul className="service-notes__list" role="list">
        {known.map(({ note, entry: [key, Icon] }) => {
          return (
            <li key={note} className="service-note">
              <Icon size={18} />
              {t(key)}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
