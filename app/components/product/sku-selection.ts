import type { ProductDetail } from '../../../server/domains/catalog/catalog.schemas';

export type Product = ProductDetail;
export type Sku = Product['good_sku'][number];
/** One chosen value id per property, in property order; null where nothing is chosen yet. */
export type Selection = (number | null)[];

/** What the parts that follow the chosen SKU are given: the product, the choice, and a way to change it. */
export interface ChoiceProps {
  product: Product;
  selection: Selection;
  onChoose: (index: number, valueId: number) => void;
}

/** The SKU whose values are exactly the selection, or undefined while a choice is missing. */
export function skuFor(product: Product, selection: Selection): Sku | undefined {
  if (selection.some((id) => id === null)) return undefined;
  return product.good_sku.find((sku) => selection.every((id) => sku.value_ids.includes(id!)));
}

/** SKUs that agree with every chosen value. */
export function matchingSkus(product: Product, selection: Selection): Sku[] {
  return product.good_sku.filter((sku) => selection.every((id) => id === null || sku.value_ids.includes(id)));
}

/** False when every SKU with this value, given the other properties' choices, is out of stock. */
export function isAvailable(product: Product, selection: Selection, index: number, valueId: number): boolean {
  const others = selection.map((id, i) => (i === index ? valueId : id));
  return matchingSkus(product, others).some((sku) => sku.stock > 0);
}

/**
 * What the page opens with: `?sku=` when it names one of this product's SKUs, else `?v=`
 * (value ids, possibly a partial choice), else the first SKU in stock (the first at all
 * when everything is sold out).
 */
export function initialSelection(product: Product, search: URLSearchParams): Selection {
  const skuId = Number(search.get('sku'));
  const fromValues = (ids: number[]) =>
    product.property.map((property) => property.values.find((value) => ids.includes(value.id))?.id ?? null);
  const chosen = product.good_sku.find((sku) => sku.id === skuId);
  if (chosen) return fromValues(chosen.value_ids);
  const values = search.get('v');
  if (values !== null) return fromValues(values.split(',').map(Number));
  const first = product.good_sku.find((sku) => sku.stock > 0) ?? product.good_sku[0];
  return fromValues(first?.value_ids ?? []);
}

/** The query that renders a selection on the server: `?sku=` for a full choice, `?v=` for a partial one. */
export function selectionSearch(product: Product, selection: Selection): string {
  const sku = skuFor(product, selection);
  if (sku) return `?sku=${sku.id}`;
  const ids = selection.filter((id) => id !== null);
  return `?v=${ids.join(',')}`;
}
