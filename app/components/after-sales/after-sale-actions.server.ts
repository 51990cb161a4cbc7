import { data, redirect } from 'react-router';
import { z } from 'zod';
import { translate, type Locale, type MessageKey } from '../../../i18n';
import {
  afterSaleAppealBody,
  afterSaleIdParams,
  afterSaleOrderParams,
  afterSaleTrackingBody,
  createAfterSaleBody,
} from '../../../server/domains/after-sales/after-sales.schemas';
import type { StorefrontLoadContext } from '~/lib/context';
import { formFields, parseForm, readForm, refusalOf, refusalText } from '~/lib/action-result.server';
import { localePath } from '~/lib/i18n';
import type { AfterSaleFormAnswer, CaseIntent } from './form-answer';

/**
 * The after-sale pages' loaders and actions, on the buyer's own orders and cases: the forms
 * are read into the bodies of the API's calls and validated with the API's schemas, then handed
 * to `context.services.afterSales` in-process. Someone else's order or case is the 404 page.
 */

/** `:id` of /my/order/{id}/after-sale, by the API's rule for `:orderId`; anything else is the 404 page. */
export function orderIdParam(value: string | undefined): number {
  const parsed = afterSaleOrderParams.safeParse({ orderId: value });
  if (!parsed.success) throw data(null, { status: 404 });
  return parsed.data.orderId;
}

/** `:id` of /my/after-sale/{id}, by the API's rule; anything else is the 404 page. */
export function caseIdParam(value: string | undefined): number {
  const parsed = afterSaleIdParams.safeParse({ id: value });
  if (!parsed.success) throw data(null, { status: 404 });
  return parsed.data.id;
}

/** A read of the buyer's own order or case; "not found" (a missing one or another buyer's) is the 404 page. */
export async function ownOr404<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (refusalOf(error)?.kind === 'notFound') throw data(null, { status: 404 });
    throw error;
  }
}

/** Refusals that are about one field of the form show under that field rather than above the form. */
const REFUSAL_FIELDS: Partial<Record<MessageKey, string>> = {
  'afterSale.typeNotAllowed': 'type',
  'afterSale.noLines': 'lines',
  'afterSale.lineTwice': 'lines',
  'afterSale.lineNotInOrder': 'lines',
  'afterSale.quantityTooHigh': 'lines',
  'afterSale.finalSale': 'lines',
  'afterSale.wantedSkuRequired': 'lines',
  'afterSale.wantedSkuInvalid': 'lines',
  'afterSale.photosRequired': 'photos',
  'afterSale.photoInvalid': 'photos',
  'afterSale.tooManyPhotos': 'photos',
};

/** A service's refusal as the form's answer; "not found" is the 404 page, anything unexpected the error page. */
function refused(locale: Locale, intent: CaseIntent | 'request', error: unknown): AfterSaleFormAnswer {
  const refusal = refusalOf(error);
  if (!refusal) throw error;
  if (refusal.kind === 'notFound') throw data(null, { status: 404 });
  const message = refusalText(locale, refusal);
  const field = REFUSAL_FIELDS[refusal.messageKey as MessageKey];
  return { ok: false, intent, error: message, fields: field ? { [field]: message } : {} };
}

const texts = (values: FormDataEntryValue[]) => values.filter((value): value is string => typeof value === 'string');

/**
 * The request form as POST /v1/after-sale's body. Each chosen line is a checked `item` (its
 * order line id) with `quantity-{id}` and, for an exchange, `wanted-{id}`; each uploaded photo
 * is a `photos` field. Numbers arrive as text; the schema says what is wrong with them.
 */
function requestBodyOf(form: FormData, orderId: number) {
  const fields = formFields(form);
  const number = (value: string | undefined) => (value === undefined ? undefined : Number(value));
  const type = number(fields.type);
  return {
    order_id: orderId,
    type,
    reason: fields.reason,
    description: fields.description,
    photos: texts(form.getAll('photos')),
    idempotency_key: fields.idempotency_key,
    lines: texts(form.getAll('item')).map((id) => ({
      order_item_id: Number(id),
      quantity: number(fields[`quantity-${id}`]) ?? 1,
      // Only an exchange names what it wants instead (the form only shows the choice then).
      wanted_sku_id: type === 30 ? number(fields[`wanted-${id}`]) : undefined,
    })),
  };
}

/**
 * Sends the request: one case per idempotency key (the form's hidden field, made when the page
 * rendered), so a double submit answers the case the first one made; then the case's page.
 * Counted against the same per-buyer limit as `POST /v1/after-sale`.
 */
export async function requestAfterSale(
  context: StorefrontLoadContext,
  request: Request,
  input: { userId: number; orderId: number; locale: Locale },
) {
  const { locale } = input;
  const form = await readForm(request, locale);
  const parsed = parseForm(locale, createAfterSaleBody, requestBodyOf(form, input.orderId));
  if (!parsed.ok) return { ok: false, intent: 'request', error: parsed.error, fields: parsed.fields } as const;
  let caseId: number;
  try {
    const created = await context.services.afterSales.createAfterSale(context.ctx, {
      userId: input.userId,
      locale,
      body: parsed.data,
    });
    caseId = created.id;
  } catch (error) {
    return refused(locale, 'request', error);
  }
  return redirect(localePath(locale, `/my/after-sale/${caseId}`));
}

/** The case page's closed set of intents; any other is a 400. */
const caseIntent = z.object({ intent: z.enum(['cancel', 'tracking', 'appeal', 'confirm']) });

const DONE_MESSAGES = {
  cancel: 'afterSale.done.cancelled',
  tracking: 'afterSale.done.tracking',
  appeal: 'afterSale.done.appealed',
  confirm: 'afterSale.done.confirmed',
} as const satisfies Record<CaseIntent, MessageKey>;

/** The buyer's moves on the case page: cancel, the return's tracking, an appeal, the exchange received. */
export async function caseAction(
  context: StorefrontLoadContext,
  request: Request,
  input: { userId: number; id: number; locale: Locale },
) {
  const { locale } = input;
  const form = await readForm(request, locale);
  const fields = formFields(form);
  const chosen = parseForm(locale, caseIntent, fields);
  if (!chosen.ok) {
    const refusal: AfterSaleFormAnswer = { ok: false, intent: null, error: chosen.error, fields: {} };
    return data(refusal, { status: 400 });
  }
  const { intent } = chosen.data;
  const { afterSales } = context.services;
  const done = (): AfterSaleFormAnswer => ({ ok: true, intent, message: translate(locale, DONE_MESSAGES[intent]) });
  const invalid = (result: { error: string; fields: Record<string, string> }): AfterSaleFormAnswer => ({
    ok: false,
    intent,
    ...result,
  });
  try {
    switch (intent) {
      case 'cancel':
        await afterSales.cancelAfterSale(context.ctx, input);
        return done();
      case 'confirm':
        await afterSales.confirmExchange(context.ctx, input);
        return done();
      case 'tracking': {
        // A blank field is an empty text here, so the schema's own sentence ("Enter the carrier") answers it.
        const body = parseForm(locale, afterSaleTrackingBody, {
          carrier: fields.carrier ?? '',
          tracking_no: fields.tracking_no ?? '',
        });
        if (!body.ok) return invalid(body);
        await afterSales.addReturnTracking(context.ctx, { ...input, body: body.data });
        return done();
      }
      case 'appeal': {
        const body = parseForm(locale, afterSaleAppealBody, {
          message: fields.message ?? '',
          photos: texts(form.getAll('photos')),
        });
        if (!body.ok) return invalid(body);
        await afterSales.appealAfterSale(context.ctx, { ...input, body: body.data });
        return done();
      }
    }
  } catch (error) {
    return refused(locale, intent, error);
  }
}
