import type { MessageKey } from '../../../i18n';
import { useT } from '~/lib/i18n';
import { ReturnIcon, SupportIcon, TruckIcon } from '../ui/icons';
import { ShieldIcon } from './icons';

const PROMISES: readonly { icon: typeof TruckIcon; title: MessageKey; text: MessageKey }[] = [
  { icon: TruckIcon, title: 'home.promise.shipping.title', text: 'home.promise.shipping.text' },
  { icon: ReturnIcon, title: 'home.promise.returns.title', text: 'home.promise.returns.text' },
  { icon: SupportIcon, title: 'home.promise.support.title', text: 'home.promise.support.text' },
  { icon: ShieldIcon, title: 'home.promise.secure.title', text: 'home.promise.secure.text' },
];

function PromiseList({ className }: { className: string }) {
  const t = useT();
  return (
    <ul className={className} role="list">
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
  );
}

/** What every order comes with (SPEC section 3's service notes, for buyers abroad): a band on the home page. */
export function ServicePromises() {
  const t = useT();
  return (
    <section className="promises" aria-labelledby="promises-title">
      <div className="container">
        <h2 className="sr-only" id="promises-title">
          {t('home.promisesTitle')}
        </h2>
        <PromiseList className="promises__list" />
      </div>
    </section>
  );
}

/** The same promises as a card beside a content page. */
export function ServicePromisesCard() {
  const t = useT();
  return (
    <aside className="side-card" aria-labelledby="promises-card-title">
      <h2 className="side-card__title" id="promises-card-title">
        {t('home.promisesTitle')}
      </h2>
      <PromiseList className="promises__list promises__list--compact" />
    </aside>
  );
}
