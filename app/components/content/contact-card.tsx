import type { MessageKey } from '../../../i18n';
import { useT } from '~/lib/i18n';
import { useSite } from '~/lib/root-data';
import { MailIcon, PhoneIcon } from '../ui/icons';

/** The shop's email and phone from the site settings, shown beside the contact and FAQ pages. */
export function ContactCard({ title = 'content.getInTouch' }: { title?: MessageKey }) {
  const t = useT();
  const site = useSite();
  return (
    <aside className="side-card contact-card" aria-labelledby="contact-card-title">
      <h2 className="side-card__title" id="contact-card-title">
        {t(title)}
      </h2>
      <ul className="contact-card__list" role="list">
        {site.contactEmail ? (
          <li>
            <a className="contact-card__item" href={`mailto:${site.contactEmail}`}>
              <span className="contact-card__icon">
                <MailIcon size={20} />
              </span>
              <span>
                <span className="contact-card__label">{t('content.emailUs')}</span>
                <span className="contact-card__value">{site.contactEmail}</span>
              </span>
            </a>
          </li>
        ) : null}
        {site.contactPhone ? (
          <li>
            <a className="contact-card__item" href={`tel:${site.contactPhone.replace(/[^\d+]/g, '')}`}>
              <span className="contact-card__icon">
                <PhoneIcon size={20} />
              </span>
              <span>
                <span className="contact-card__label">{t('content.callUs')}</span>
                <span className="contact-card__value">{site.contactPhone}</span>
              </span>
            </a>
          </li>
        ) : null}
      </ul>
      <p className="contact-card__note">{t('content.replyTime')}</p>
    </aside>
  );
}
