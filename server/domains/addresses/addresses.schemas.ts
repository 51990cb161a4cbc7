import { z } from 'zod';
import { rowIdFromText } from '../../shared/ids.schemas';
import { singleLineText } from '../../shared/text';

/** A buyer keeps at most this many addresses. */
export const MAX_ADDRESSES_PER_USER = 20;

/** Request shapes of the address endpoints; messages are SPEC section 5's. */
const requiredText = (message: string, max: number) => singleLineText(max, message).min(1, message);
const optionalText = (max: number) => singleLineText(max).optional();

export const addressInput = z.object({
  country_code: z
    .string({ error: 'address.countryRequired' })
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'address.countryRequired')
    .transform((code) => code.toUpperCase()),
  /** A province/state id of `/v1/area/all` ('US-CA', 'CN-GD'); free text in `province` only for countries without subdivisions. */
  province_id: optionalText(20),
  province: optionalText(100),
  /** A city id of `/v1/area/all` (required in mainland China, where the list is complete); elsewhere an id or free text in `city`. */
  city_id: optionalText(40),
  city: optionalText(100),
  detail: requiredText('address.detailRequired', 300),
  postal_code: z
    .string()
    .trim()
    .max(20, 'address.postalCodeInvalid')
    .regex(/^[A-Za-z0-9 -]*$/, 'address.postalCodeInvalid')
    .optional(),
  contact_name: requiredText('address.nameRequired', 60),
  contact_phone: requiredText('address.phoneInvalid', 30),
  is_default: z.boolean().optional(),
});
export type AddressInput = z.infer<typeof addressInput>;

export const addressUpdate = addressInput.extend({ id: rowIdFromText });
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
