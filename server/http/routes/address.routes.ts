import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { translate } from '../../../i18n';
import { addressIdQuery, addressInput, addressUpdate, addressView } from '../../domains/addresses/addresses.schemas';
import {
  createAddress,
  deleteAddress,
  getAddress,
  listAddresses,
  updateAddress,
} from '../../domains/addresses/addresses.service';
import { requireUser, signedInBuyer } from '../auth';
import { answers, ok } from '../envelope';

/** SPEC section 7's address calls; every one is the signed-in user's own addresses only. */
export const addressRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('preHandler', requireUser);

  app.get(
    '/useraddress/list',
    {
      schema: {
        tags: ['address'],
        summary: "The user's addresses, default first",
        response: answers(z.array(addressView), 'login'),
      },
    },
    async (request) => ok(await listAddresses(request.ctx, signedInBuyer(request))),
  );

  app.get(
    '/useraddress',
    {
      schema: {
        tags: ['address'],
        summary: 'One address (?id=)',
        querystring: addressIdQuery,
        response: answers(addressView, 'invalid', 'login', 'notFound'),
      },
    },
    async (request) => ok(await getAddress(request.ctx, { ...signedInBuyer(request), id: request.query.id })),
  );

  app.post(
    '/useraddress',
    {
      schema: {
        tags: ['address'],
        summary: 'Add an address (the first one becomes the default)',
        body: addressInput,
        response: answers(addressView, 'write', 'login'),
      },
    },
    async (request) => {
      const address = await createAddress(request.ctx, { ...signedInBuyer(request), address: request.body });
      return ok(address, translate(request.ctx.locale, 'address.saved'));
    },
  );

  app.put(
    '/useraddress',
    {
      schema: {
        tags: ['address'],
        summary: 'Change an address (body carries its id)',
        body: addressUpdate,
        response: answers(addressView, 'write', 'login', 'notFound'),
      },
    },
    async (request) => {
      const address = await updateAddress(request.ctx, { ...signedInBuyer(request), address: request.body });
      return ok(address, translate(request.ctx.locale, 'address.saved'));
    },
  );

  app.delete(
    '/useraddress/:id',
    {
      schema: {
        tags: ['address'],
        summary: 'Delete an address (the newest other one becomes the default)',
        params: addressIdQuery,
        response: answers(z.null(), 'write', 'login', 'notFound'),
      },
    },
    async (request) => {
      await deleteAddress(request.ctx, { userId: signedInBuyer(request).userId, id: request.params.id });
      return ok(null, translate(request.ctx.locale, 'address.deleted'));
    },
  );
};
