/** What the buyer can do on a case page; each is one form posting `intent`. */
export type CaseIntent = 'cancel' | 'tracking' | 'appeal' | 'confirm';

/**
 * What the after-sale pages' actions answer when they do not move on to another page: done
 * (with the sentence to show), or refused with a sentence for the form and one per field
 * (the API's own sentences, in the page's language).
 */
export type AfterSaleFormAnswer =
  | { ok: true; intent: CaseIntent; message: string }
  | { ok: false; intent: CaseIntent | 'request' | null; error: string; fields: Record<string, string> };

/** The sentence for one field of the form that sent `intent`, if the answer has one. */
export function fieldError(
  answer: AfterSaleFormAnswer | undefined,
  intent: CaseIntent | 'request',
  field: string,
): string | undefined {
  return answer && !answer.ok && answer.intent === intent ? answer.fields[field] : undefined;
}
