import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { translate } from '../../../i18n';
import { addressIdQuery, addressInput, addressUpdate } from '../../domains/addresses/addresses.schemas';
import { createAddress, deleteAddress, getAddress, listAddresses, updateAddress } from '../../domains/addresses/addresses.service';
import { requireUser } from '../auth';
import { envelopeOf, ok } from '../envelope';

export const addressSchema = z.object({
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
  full_address: z.string(),
});

/** SPEC section 7's address calls; every one is the signed-in user's own addresses only. */
export const addressRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('preHandler', requireUser);

  app.get(
    '/useraddress/list',
    { schema: { tags: ['address'], summary: "The user's addresses, default first", response: { 200: envelopeOf(z.array(addressSchema)) } } },
    async (request) => ok(await listAddresses(request.ctx, { userId: request.ctx.user!.id, locale: request.ctx.locale })),
  );

  app.get(
    '/useraddress',
    { schema: { tags: ['address'], summary: 'One address (?id=)', querystring: addressIdQuery, response: { 200: envelopeOf(addressSchema) } } },
    async (request) => ok(await getAddress(request.ctx, { userId: request.ctx.user!.id, id: request.query.id, locale: request.ctx.locale })),
  );

  app.post(
    '/useraddress',
    { schema: { tags: ['address'], summary: 'Add an address (the first one becomes the default)', body: addressInput, response: { 200: envelopeOf(addressSchema) } } },
    async (request) => {
      const address = await createAddress(request.ctx, { userId: request.ctx.user!.id, address: request.body, locale: request.ctx.locale });
      return ok(address, translate(request.ctx.locale, 'address.saved'));
    },
  );

  app.put(
    '/useraddress',
    { schema: { tags: ['address'], summary: 'Change an address (body carries its id)', body: addressUpdate, response: { 200: envelopeOf(addressSchema) } } },
    async (request) => {
      const address = await updateAddress(request.ctx, { userId: request.ctx.user!.id, address: request.body, locale: request.ctx.locale });
      return ok(address, translate(request.ctx.locale, 'address.saved'));
    },
  );

  app.delete(
    '/useraddress/:id',
    { schema: { tags: ['address'], summary: 'Delete an address (the newest other one becomes the default)', params: addressIdQuery, response: { 200: envelopeOf(z.null()) } } },
    async (request) => {
      await deleteAddress(request.ctx, { userId: request.ctx.user!.id, id: request.params.id });
      return ok(null, translate(request.ctx.locale, 'address.deleted'));
    },
  );
};
