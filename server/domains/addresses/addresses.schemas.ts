import { z } from 'zod';
import { rowIdFromText } from '../../shared/ids.schemas';
import { checkPostalCode } from '../../shared/postal-codes';
import { singleLineText } from '../../shared/text';

/** A buyer keeps at most this many addresses. */
export const MAX_ADDRESSES_PER_USER = 20;

/** Request shapes of the address endpoints; messages are SPEC section 5's. */
const requiredText = (message: string, max: number) => singleLineText(max, message).min(1, message);
const optionalText = (max: number) => singleLineText(max).optional();

const addressFields = z.object({
  country_code: z
    .string({ error: 'address.countryRequired' })
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'address.countryRequired')
    .transform((code) => code.toUpperCase()),
  /** A province/state id of `/v1/area/all` ('US-CA', 'CN-GD'); free text in `province` only for countries without subdivisions. */
  province_id: optionalText(20),
  province: optionalText(100),
  /** A city id of `/v1/area/all` (required in mainland China, where the list is complete); elsewhere an id or any town typed in `city`. */
  city_id: optionalText(40),
  city: optionalText(100),
  detail: requiredText('address.detailRequired', 300),
  /** Required and checked where the country has postal codes; answered as the post writes it ('sw1a1aa' is 'SW1A 1AA'). */
  postal_code: optionalText(20),
  contact_name: requiredText('address.nameRequired', 60),
  contact_phone: requiredText('address.phoneInvalid', 30),
  is_default: z.boolean().optional(),
});

type AddressFields = z.output<typeof addressFields>;

/**
 * The country's postal-code rule (server/shared/postal-codes.ts), checked once the country
 * and the code are each well formed, so the form shows it beside other fields' messages.
 */
function withPostalCodeRule<T extends AddressFields>(schema: z.ZodType<T>) {
  return schema
    .superRefine(
      (address, ctx) => {
        const checked = checkPostalCode(address.country_code, address.postal_code);
        if (!checked.ok)
          ctx.addIssue({ code: 'custom', path: ['postal_code'], message: checked.message, params: checked.params });
      },
      { when: ({ issues }) => !issues.some(({ path }) => path?.[0] === 'country_code' || path?.[0] === 'postal_code') },
    )
    .transform((address) => {
      const checked = checkPostalCode(address.country_code, address.postal_code);
      return { ...address, postal_code: checked.ok ? checked.postalCode : address.postal_code };
    });
}

export const addressInput = withPostalCodeRule(addressFields);
export type AddressInput = z.infer<typeof addressInput>;

export const addressUpdate = withPostalCodeRule(addressFields.extend({ id: rowIdFromText }));
export type AddressUpdate = z.infer<typeof addressUpdate>;

export const addressIdQuery = z.object({ id: rowIdFromText });

/** An address as the address endpoints and pages answer it. */
export const addressView = z.object({
  id: z.number().int(),
  country_code: z.string(),
  country: z.string(),
  province_id: z.string().nullable(),
  province: z.string(),
  city_id: z.string().nullable(),
  city: z.string(),
  detail: z.string(),
  postal_code: z.string(),
  contact_name: z.string(),
  contact_phone: z.string().describe('E.164'),
  is_default: z.boolean(),
  full_address: z.string().describe('one line: detail, city, province, postal code, country'),
});
export type AddressView = z.infer<typeof addressView>;
