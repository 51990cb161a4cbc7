import { translate } from '../../../i18n';
import type { Locale } from '../../../i18n/locales';
import { absoluteUrl } from '~/lib/seo';
import type { Product } from './sku-selection';

const availability = (stock: number) => `https://schema.org/${stock > 0 ? 'InStock' : 'OutOfStock'}`;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

/** A description written in the console's editor: HTML the server cleaned (ADR 0160); seeded ones are plain paragraphs. */
export function isRichText(text: string): boolean {
  return text.trimStart().startsWith('<');
}

/** The description's words without its markup. */
function plainText(text: string): string {
  if (!isRichText(text)) return text;
  return text
    .replace(/<\/(?:p|h\d|li|blockquote)>/g, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39);/g, (entity, name: string) => ENTITIES[name] ?? entity)
    .trim();
}

/** First sentence-ish ~150 characters of the description, cut at a word where there is one. */
export function summary(text: string, max = 150): string {
  const flat = plainText(text).replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:，。；：、]+$/, '')}…`;
}

/**
 * schema.org Product (one Offer per SKU, priced in the settlement currency, which is what
 * the buyer is charged) and the page's BreadcrumbList.
 */
export function productJsonLd(
  product: Product,
  { origin, locale, shopName }: { origin?: string; locale: Locale; shopName?: string },
): object[] {
  const home = absoluteUrl(origin, `/${locale}/`);
  const url = absoluteUrl(origin, `/${locale}/product/${product.id}`);
  const valueNames = new Map(
    product.property.flatMap((property) => property.values.map((value) => [value.id, value.name] as const)),
  );
  const crumbs = [
    { name: translate(locale, 'shell.home'), item: home },
    ...(product.category
      ? [{ name: product.category.name, item: absoluteUrl(origin, `/${locale}/product/cate/${product.category.id}`) }]
      : []),
    { name: product.name, item: url },
  ];
  return [
    {
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: product.name,
      description: plainText(product.description),
      url,
      image: product.images.map((image) => absoluteUrl(origin, image.url)),
      sku: product.slug,
      ...(shopName ? { brand: { '@type': 'Brand', name: shopName } } : {}),
      ...(product.category ? { category: product.category.name } : {}),
      offers: {
        '@type': 'AggregateOffer',
        priceCurrency: product.price_range.currency,
        lowPrice: product.price_range.min,
        highPrice: product.price_range.max,
        offerCount: product.good_sku.length,
        availability: availability(Math.max(0, ...product.good_sku.map((sku) => sku.stock))),
        offers: product.good_sku.map((sku) => ({
          '@type': 'Offer',
          sku: sku.code,
          name:
            sku.value_ids
              .map((id) => valueNames.get(id))
              .filter(Boolean)
              .join(' / ') || product.name,
          price: sku.price,
          priceCurrency: sku.currency,
          availability: availability(sku.stock),
          itemCondition: 'https://schema.org/NewCondition',
          url: `${url}?sku=${sku.id}`,
        })),
      },
    },
    {
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: crumbs.map((crumb, index) => ({ '@type': 'ListItem', position: index + 1, ...crumb })),
    },
  ];
}
