import { Link } from 'react-router';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { useRootData } from '~/lib/root-data';
import { ArrowRightIcon } from './icons';

/** The home page's opening banner: the shop's name, its SEO description as tagline, two calls to action. */
export function Hero() {
  const t = useT();
  const locale = useLocale();
  const data = useRootData();
  return (
    <section className="hero" aria-labelledby="hero-title">
      <div className="container hero__inner">
        <div className="hero__copy">
          <p className="eyebrow">{t('home.eyebrow')}</p>
          <h1 className="hero__title" id="hero-title">
            {data?.site.name}
          </h1>
          {data?.seo.desc ? <p className="hero__lead">{data.seo.desc}</p> : null}
          <div className="hero__actions">
            <a className="button button--primary button--large" href="#shop">
              {t('home.shopNow')}
              <ArrowRightIcon size={18} />
            </a>
            <Link className="button button--secondary button--large" to={localePath(locale, '/our-story')}>
              {t('nav.ourStory')}
            </Link>
          </div>
        </div>
        <div className="hero__art" aria-hidden="true">
          <span className="hero__disc" />
          <span className="hero__card hero__card--one" />
          <span className="hero__card hero__card--two" />
          <span className="hero__card hero__card--three" />
        </div>
      </div>
    </section>
  );
}
