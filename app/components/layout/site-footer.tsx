import { Link } from 'react-router';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { useSite } from '~/lib/root-data';
import { MailIcon, PhoneIcon, TruckIcon } from '../ui/icons';
import { ColorModeSwitch } from './color-mode-switch';
import { LanguageSwitch } from './language-switch';

export function SiteFooter() {
  const t = useT();
  const locale = useLocale();
  const site = useSite();
  const year = new Date().getFullYear();
  const link = (path: string) => localePath(locale, path);
  return (
    <footer className="site-footer">
      <div className="container site-footer__grid">
        <div className="site-footer__about">
          <p className="site-footer__name">{site.name}</p>
          <p className="site-footer__text">{t('footer.aboutLine')}</p>
          <p className="site-footer__shipping">
            <TruckIcon size={18} />
            <span>{t('footer.shipping')}</span>
          </p>
        </div>
        <FooterLinks
          id="footer-help"
          heading={t('footer.help')}
          links={[
            [link('/faq'), t('nav.faq')],
            [link('/contact-us'), t('nav.contactUs')],
          ]}
        />
        <FooterLinks
          id="footer-about"
          heading={t('footer.about')}
          links={[
            [link('/our-story'), t('nav.ourStory')],
            [link('/videos'), t('nav.videos')],
          ]}
        />
        <div className="site-footer__col site-footer__col--contact">
          <h2 className="site-footer__heading">{t('footer.contact')}</h2>
          <ul role="list">
            {site.contactEmail ? (
              <li>
                <a className="site-footer__contact" href={`mailto:${site.contactEmail}`}>
                  <MailIcon size={18} />
                  <span className="sr-only">{t('footer.email')}</span>
                  <span>{site.contactEmail}</span>
                </a>
              </li>
            ) : null}
            {site.contactPhone ? (
              <li>
                <a className="site-footer__contact" href={`tel:${site.contactPhone.replace(/[^\d+]/g, '')}`}>
                  <PhoneIcon size={18} />
                  <span className="sr-only">{t('footer.phone')}</span>
                  <span>{site.contactPhone}</span>
                </a>
              </li>
            ) : null}
          </ul>
        </div>
      </div>
      <div className="site-footer__legal">
        <div className="container site-footer__bottom">
          <p className="site-footer__rights">{t('footer.rights', { year, name: site.name })}</p>
          <div className="site-footer__prefs">
            <LanguageSwitch />
            <ColorModeSwitch />
          </div>
        </div>
      </div>
    </footer>
  );
}

/** A titled column of links: [href, label] pairs. */
function FooterLinks({ id, heading, links }: { id: string; heading: string; links: [string, string][] }) {
  return (
    <nav className="site-footer__col" aria-labelledby={id}>
      <h2 className="site-footer__heading" id={id}>
        {heading}
      </h2>
      <ul role="list">
        {links.map(([href, label]) => (
          <li key={href}>
            <Link to={href}>{label}</Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
