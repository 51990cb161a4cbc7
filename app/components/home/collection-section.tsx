import { Link } from 'react-router';
import type { HomeSection } from '../../../server/domains/catalog/catalog.schemas';
import { ProductGrid } from '~/components/catalog/product-card';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { ArrowRightIcon } from './icons';

/**
 * A curated collection on the home page: title, description, its first products and a link to
 * the whole collection. Phones show the first four cards, tablets six, desktops all eight.
 */
export function CollectionSection({ section }: { section: HomeSection }) {
  const t = useT();
  const locale = useLocale();
  const titleId = `collection-${section.id}-title`;
  const href = localePath(locale, `/product/cate/${section.id}`);
  return (
    <section className="home-block collection" aria-labelledby={titleId}>
      <div className="container">
        <div className="section-head">
          <div className="section-head__text">
            <h2 className="section-head__title" id={titleId}>
              {section.name}
            </h2>
            {section.description ? <p className="section-head__lead">{section.description}</p> : null}
          </div>
          <Link className="section-head__link" to={href} aria-label={t('homeShop.viewAllOf', { name: section.name })}>
            <span>{t('homeShop.viewAll')}</span>
            <ArrowRightIcon size={16} />
          </Link>
        </div>
        <ProductGrid products={section.products} className="product-grid--home" />
      </div>
    </section>
  );
}
