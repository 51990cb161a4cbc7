import { Link } from 'react-router';
import { imageAt, imageSrcSet } from '~/components/catalog/image';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { ArrowRightIcon } from './icons';

export interface CategoryTile {
  id: number;
  name: string;
  image: string | null;
}

/** The top-level categories as picture tiles: two columns on phones, three from 600px. */
export function CategoryStrip({ categories }: { categories: CategoryTile[] }) {
  const t = useT();
  const locale = useLocale();
  if (categories.length === 0) return null;
  return (
    <section className="home-block category-strip" aria-labelledby="category-strip-title">
      <div className="container">
        <div className="section-head">
          <div className="section-head__text">
            <h2 className="section-head__title" id="category-strip-title">
              {t('homeShop.categories')}
            </h2>
            <p className="section-head__lead">{t('homeShop.categoriesLead')}</p>
          </div>
        </div>
        <ul className="category-grid" role="list">
          {categories.map((category, index) => (
            <li key={category.id}>
              <Link className="category-tile" to={localePath(locale, `/product/cate/${category.id}`)} prefetch="intent">
                <span className="category-tile__media">
                  {category.image ? (
                    <img
                      src={imageAt(category.image, 480)}
                      srcSet={imageSrcSet(category.image, [320, 480, 640, 800])}
                      sizes="(min-width: 1280px) 384px, (min-width: 600px) 31vw, 46vw"
                      width={1200}
                      height={800}
                      alt=""
                      // The first row can be the largest paint on a phone, so it is not deferred.
                      loading={index < 2 ? 'eager' : 'lazy'}
                      // The first tile is that paint on a Chinese phone page (its hero text is smaller than the picture).
                      fetchPriority={index === 0 ? 'high' : undefined}
                      decoding={index < 2 ? undefined : 'async'}
                    />
                  ) : null}
                </span>
                <span className="category-tile__name">
                  {category.name}
                  <ArrowRightIcon size={16} className="category-tile__arrow" />
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
