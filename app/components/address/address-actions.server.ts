import { data } from 'react-router';
import { translate, type Locale } from '../../../i18n';
import { addressIdQuery, addressInput, addressUpdate } from '../../../server/domains/addresses/addresses.schemas';
import type { StorefrontLoadContext } from '~/lib/context';
import { formFields, parseForm, runAction } from '~/lib/action-result.server';
import type { AddressView as Address } from '../../../server/domains/addresses/addresses.schemas';

/**
 * The address page's action, also posted to by the confirm page's address dialog:
 * intent=save (add, or change when `id` is sent), intent=delete, intent=default; any other is
 * a 400. The same schemas and service as `/v1/useraddress`, called in-process.
 */
export async function addressAction(context: StorefrontLoadContext, userId: number, locale: Locale, form: FormData) {
  const { addresses } = context.services;
  const { intent, is_default: isDefault, ...fields } = formFields(form);
  switch (intent) {
    case 'delete':
    case 'default': {
      const target = parseForm(locale, addressIdQuery, fields);
      if (!target.ok) return target;
      const { id } = target.data;
      return runAction(
        locale,
        async () => {
          if (intent === 'delete') {
            await addresses.deleteAddress(context.ctx, { userId, id });
            return null;
          }
          const current = await addresses.getAddress(context.ctx, { userId, id, locale });
          return addresses.updateAddress(context.ctx, {
            userId,
            address: { ...inputOf(current), id, is_default: true },
            locale,
          });
        },
        intent === 'delete' ? 'deleted' : 'default',
      );
    }
    case 'save': {
      // A checkbox sends `on` when ticked and nothing otherwise.
      const input = { ...fields, is_default: isDefault === 'on' || isDefault === 'true' };
      let result;
      if (fields.id) {
        const parsed = parseForm(locale, addressUpdate, input);
        if (!parsed.ok) return parsed;
        result = await runAction(locale, () =>
          addresses.updateAddress(context.ctx, { userId, address: parsed.data, locale }),
        );
      } else {
        const parsed = parseForm(locale, addressInput, input);
        if (!parsed.ok) return parsed;
        result = await runAction(locale, () =>
          addresses.createAddress(context.ctx, { userId, address: parsed.data, locale }),
        );
      }
      return result.ok ? { ok: true as const, address: result.data as Address } : result;
    }
    default:
      // No page of ours sends another intent: that request is malformed, not a buyer's mistake.
      return data(
        {
          ok: false as const,
          error: translate(locale, 'validation.invalidFormat', { field: translate(locale, 'field.intent') }),
        },
        { status: 400 },
      );
  }
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
