import { useEffect, useState } from 'react';
import type { AfterSaleEstimate, CreateAfterSaleBody } from '../../../server/domains/after-sales/after-sales.schemas';
import { api } from '~/lib/api-client';
import type { Locale } from '../../../i18n';

type EstimateInput = Pick<CreateAfterSaleBody, 'order_id' | 'type' | 'lines'>;

/** How long the form must stay unchanged before the refund is asked for again. */
const SETTLE_MS = 250;

/**
 * The refund the chosen lines would bring, from `POST /v1/after-sale/estimate` (the server
 * works it out from the order; the page never does sums of its own). Asked again a moment
 * after the choice changes, the previous answer shown meanwhile; `null` input asks nothing.
 */
export function useEstimate(
  input: EstimateInput | null,
  locale: Locale,
): { estimate: AfterSaleEstimate | null; loading: boolean; failed: boolean } {
  const key = input ? JSON.stringify(input) : '';
  const [answer, setAnswer] = useState<{ key: string; estimate: AfterSaleEstimate | null }>({
    key: '',
    estimate: null,
  });

  useEffect(() => {
    if (!key) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api<AfterSaleEstimate>('/after-sale/estimate', {
        method: 'POST',
        body: JSON.parse(key) as EstimateInput,
        locale,
        signal: controller.signal,
      }).then(
        (estimate) => setAnswer({ key, estimate }),
        () => {
          // A newer choice replaced this one: its own answer is on the way.
          if (!controller.signal.aborted) setAnswer({ key, estimate: null });
        },
      );
    }, SETTLE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key, locale]);

  if (!key) return { estimate: null, loading: false, failed: false };
  const current = answer.key === key;
  return {
    estimate: answer.estimate,
    loading: !current,
    failed: current && answer.estimate === null,
  };
}
