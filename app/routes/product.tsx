import { useState } from 'react';
import { data, useSearchParams } from 'react-router';
import { Breadcrumb } from '~/components/ui/breadcrumb';
import { RouteErrorPage } from '~/components/layout/error-page';
import { Gallery } from '~/components/product/gallery';
import { ProductPurchase } from '~/components/product/product-purchase';
import { isRichText, productJsonLd, summary } from '~/components/product/product-seo';
import { SHIPPING_PROMISE_NOTE, ServiceNotes, type ShippingPromise } from '~/components/product/service-notes';
import { shippingPromise } from '~/components/product/shipping-promise.server';
import { initialSelection, selectionSearch, type Product } from '~/components/product/sku-selection';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { pageMeta } from '~/lib/seo';
import type { RootLoaderData } from '~/root';
import type { Route } from './+types/product';
import { plainRowId } from '../../server/shared/ids';

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const id = plainRowId(params.id);
  if (id === null) throw data(null, { status: 404 });
  const product = await context.services.catalogProducts.getProduct(context.ctx, id, context.ctx.locale);
  if (!product) throw data(null, { status: 404 });
  const shipping = product.service_notes.includes(SHIPPING_PROMISE_NOTE) ? await shippingPromise(context, request) : [];
  return { product, shipping };
}

export const meta: Route.MetaFunction = ({ matches, data }) => {
  const rootMatch = matches.find((match) => match?.id === 'root');
  // No product (404 or failure): the root's error-page head, with its title and noindex.
  if (!data) return rootMatch?.meta ?? [];
  const { product } = data;
  const root = rootMatch?.data as RootLoaderData | undefined;
  return pageMeta(matches, {
    title: product.seo_title || product.name,
    description: product.seo_description || summary(product.description),
    path: `/product/${product.id}`,
    image: product.images[0]?.url,
    type: 'product',
    jsonLd:
      import.meta.env.SSR && root
        ? productJsonLd(product, { origin: root.origin, locale: root.locale, shopName: root.site.name })
        : [],
  });
};

/** Where a value's own picture (a colour's) sits in the gallery, or -1. */
function imageOf(product: Product, index: number, valueId: number | null): number {
  const image = product.property[index]?.values.find((value) => value.id === valueId)?.image;
  return image ? product.images.findIndex((candidate) => candidate.url === image) : -1;
}

function ProductPage({
  product,
  shipping,
  search,
}: {
  product: Product;
  shipping: ShippingPromise;
  search: URLSearchParams;
}) {
  const t = useT();
  const locale = useLocale();
  const [selection, setSelection] = useState(() => initialSelection(product, search));
  // The gallery opens on the picture of the chosen colour, if it has one.
  const [image, setImage] = useState(() =>
    Math.max(0, ...selection.map((valueId, index) => imageOf(product, index, valueId))),
  );

  function choose(index: number, valueId: number) {
    const next = selection.map((id, i) => (i === index ? valueId : id));
    setSelection(next);
    // The address keeps the choice (reload, share) without a navigation: nothing needs reloading.
    window.history.replaceState(window.history.state, '', window.location.pathname + selectionSearch(product, next));
    const at = imageOf(product, index, valueId);
    if (at >= 0) setImage(at);
  }

  return (
    <div className="product-page container">
      <Breadcrumb
        className="product-page__crumbs"
        current={product.name}
        trail={
          product.category
            ? [{ name: product.category.name, href: localePath(locale, `/product/cate/${product.category.id}`) }]
            : []
        }
      />
      <div className="product-page__main">
        <Gallery images={product.images} active={image} onActive={setImage} />
        <div className="product-page__info">
          <h1 className="product-page__title">{product.name}</h1>
          <p className="product-page__sold">
            {t('product.sold', { n: new Intl.NumberFormat(locale).format(product.sold) })}
          </p>
          <ProductPurchase product={product} selection={selection} onChoose={choose} />
          <ServiceNotes notes={product.service_notes} shipping={shipping} />
          {product.description ? (
            <section className="product-details" aria-labelledby="product-details-title">
              <h2 className="product-details__title" id="product-details-title">
                {t('product.details')}
              </h2>
              {isRichText(product.description) ? (
                // Written in the console and cleaned on the server before it was stored (ADR 0160).
                <div className="product-details__text" dangerouslySetInnerHTML={{ __html: product.description }} />
              ) : (
                <div className="product-details__text">
                  {product.description.split(/\n\s*\n/).map((paragraph, index) => (
                    <p key={index}>{paragraph}</p>
                  ))}
                </div>
              )}
            </section>
          ) : null}
        </div>
      </div>
    </div>
  );
}

export default function ProductRoute({ loaderData }: Route.ComponentProps) {
  const [search] = useSearchParams();
  const { product, shipping } = loaderData;
  // A different product or a different ?sku= from a link starts over; in-page choices only replace the address.
  return (
    <ProductPage
      key={`${product.id}|${search.get('sku')}|${search.get('v')}`}
      product={product}
      shipping={shipping}
      search={search}
    />
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorPage error={error} />;
}
