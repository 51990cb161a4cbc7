import type { MessageKey } from '../../../i18n';
import { useT } from '~/lib/i18n';
import { ReturnIcon, ShieldIcon, SupportIcon, TruckIcon } from '../ui/icons';

const PROMISES: readonly { icon: typeof TruckIcon; title: MessageKey; text: MessageKey }[] = [
  { icon: TruckIcon, title: 'home.promise.shipping.title', text: 'home.promise.shipping.text' },
  { icon: ReturnIcon, title: 'home.promise.returns.title', text: 'home.promise.returns.text' },
  { icon: SupportIcon, title: 'home.promise.support.title', text: 'home.promise.support.text' },
  { icon: ShieldIcon, title: 'home.promise.secure.title', text: 'home.promise.secure.text' },
];

/** What every order comes with (SPEC section 3's service notes, for buyers abroad). */
export function ServicePromises() {
  const t = useT();
  return (
    <section className="promises" aria-labelledby="promises-title">
      <div className="container">
        <h2 className="sr-only" id="promises-title">
          {t('home.promisesTitle')}
        </h2>
        <ul className="promises__list" role="list">
          {PROMISES.map(({ icon: Icon, title, text }) => (
            <li key={title} className="promise">
              <span className="promise__icon">
                <Icon size={22} />
              </span>
              <div>
                <h3 className="promise__title">{t(title)}</h3>
                <p className="promise__text">{t(text)}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
