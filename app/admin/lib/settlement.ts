import { useRouteLoaderData } from 'react-router';

/** The shop's settlement currency (refund limits are in it), from the document's root data. */
export function useSettlementCurrency(): string {
  const root = useRouteLoaderData('root') as { display?: { settlement?: string } } | undefined;
  return root?.display?.settlement ?? 'CNY';
}
