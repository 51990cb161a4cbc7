import { addressInput, addressUpdate } from '../../../server/domains/addresses/addresses.schemas';
import type { Locale } from '../../../i18n/locales';
import type { StorefrontLoadContext } from '~/lib/context';
import { formFields, parseForm, runAction } from '../checkout/action-result.server';
import type { Address } from './address-types';

/**
 * The address page's action, also posted to by the confirm page's address dialog:
 * intent=save (add, or change when `id` is sent), intent=delete, intent=default. The same
 * schemas and service as `/v1/useraddress`, called in-process.
 */
export async function addressAction(context: StorefrontLoadContext, userId: number, locale: Locale, form: FormData) {
  const { addresses } = context.services;
  const fields: Record<string, unknown> = formFields(form);
  const intent = fields.intent;
  if (intent === 'delete' || intent === 'default') {
    const id = Number(fields.id);
    return runAction(locale, async () => {
      if (intent === 'delete') {
        await addresses.deleteAddress(context.ctx, { userId, id });
        return null;
      }
      const current = await addresses.getAddress(context.ctx, { userId, id, locale });
      return addresses.updateAddress(context.ctx, { userId, address: { ...inputOf(current), id, is_default: true }, locale });
    }, intent === 'delete' ? 'deleted' : 'default');
  }
  fields.is_default = fields.is_default === 'on' || fields.is_default === 'true';
  let result;
  if (fields.id) {
    const parsed = parseForm(locale, addressUpdate, fields);
    if (!parsed.ok) return parsed;
    result = await runAction(locale, () => addresses.updateAddress(context.ctx, { userId, address: parsed.data, locale }));
  } else {
    const parsed = parseForm(locale, addressInput, fields);
    if (!parsed.ok) return parsed;
    result = await runAction(locale, () => addresses.createAddress(context.ctx, { userId, address: parsed.data, locale }));
  }
  return result.ok ? { ok: true as const, address: result.data as Address } : result;
}

/** An address as the form would send it back (ids where the tree has them, names otherwise). */
function inputOf(address: Address) {
  return {
    country_code: address.country_code,
    province_id: address.province_id ?? undefined,
    province: address.province_id ? undefined : address.province || undefined,
    city_id: address.city_id ?? undefined,
    city: address.city_id ? undefined : address.city || undefined,
    detail: address.detail,
    postal_code: address.postal_code || undefined,
    contact_name: address.contact_name,
    contact_phone: address.contact_phone,
  };
}
