import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  customerActionResult,
  customerDetail,
  customerExport,
  customerIdParams,
  customerListQuery,
  customerPage,
  disableCustomerBody,
  eraseCustomerBody,
  eraseCustomerResult,
} from '../../domains/customers/admin-customers.schemas';
import {
  disableCustomer,
  enableCustomer,
  getCustomerDetail,
  listCustomers,
  signOutCustomer,
} from '../../domains/customers/admin-customers.service';
import { eraseCustomer, exportCustomerData } from '../../domains/customers/customer-privacy.service';
import { actingContext } from '../admin-api';
import { answers, failures, ok } from '../envelope';

/** Customers in the console (docs/console.md, "Admin API: customers and the audit log"). */
export const adminCustomerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/customers',
    {
      config: { permission: 'customers:read' },
      schema: {
        tags: ['admin'],
        summary: 'Customers, newest first: search by email, username or mobile; filter by status',
        querystring: customerListQuery,
        response: answers(customerPage, 'invalid', 'login', 'forbidden'),
      },
    },
    async (request) => ok(await listCustomers(request.ctx, request.query)),
  );

  app.get(
    '/customers/:id',
    {
      config: { permission: 'customers:read' },
      schema: {
        tags: ['admin'],
        summary: 'One customer: profile, recent orders, addresses, live sessions, linked sign-ins, audit timeline',
        params: customerIdParams,
        response: answers(customerDetail, 'invalid', 'login', 'forbidden', 'notFound'),
      },
    },
    async (request) => ok(await getCustomerDetail(request.ctx, { id: request.params.id, locale: request.ctx.locale })),
  );

  app.post(
    '/customers/:id/disable',
    {
      config: { permission: 'customers:write' },
      schema: {
        tags: ['admin'],
        summary: 'Disable the account: signed out everywhere, and every way of signing in refuses it',
        params: customerIdParams,
        body: disableCustomerBody,
        response: answers(customerActionResult, 'write', 'login', 'forbidden', 'notFound', 'conflict'),
      },
    },
    async (request) =>
      ok(await disableCustomer(actingContext(request), { id: request.params.id, reason: request.body.reason })),
  );

  app.post(
    '/customers/:id/enable',
    {
      config: { permission: 'customers:write' },
      schema: {
        tags: ['admin'],
        summary: 'Let a disabled customer sign in again',
        params: customerIdParams,
        response: answers(customerActionResult, 'write', 'login', 'forbidden', 'notFound', 'conflict'),
      },
    },
    async (request) => ok(await enableCustomer(actingContext(request), { id: request.params.id })),
  );

  app.post(
    '/customers/:id/sign-out',
    {
      config: { permission: 'customers:write' },
      schema: {
        tags: ['admin'],
        summary: "End every session of the customer's",
        params: customerIdParams,
        response: answers(customerActionResult, 'write', 'login', 'forbidden', 'notFound'),
      },
    },
    async (request) => ok(await signOutCustomer(actingContext(request), { id: request.params.id })),
  );

  app.get(
    '/customers/:id/export',
    {
      config: { permission: 'customers:export' },
      schema: {
        tags: ['admin'],
        summary:
          'Everything the shop holds about the customer, as a JSON file to hand them (the file itself, not the envelope)',
        params: customerIdParams,
        response: { 200: customerExport, ...failures('invalid', 'login', 'forbidden', 'notFound') },
      },
    },
    async (request, reply) => {
      const exported = await exportCustomerData(actingContext(request), {
        id: request.params.id,
        locale: request.ctx.locale,
      });
      const day = exported.exported_at.slice(0, 10);
      reply.header('content-disposition', `attachment; filename="customer-${request.params.id}-${day}.json"`);
      return exported;
    },
  );

  app.post(
    '/customers/:id/erase',
    {
      config: { permission: 'customers:erase' },
      schema: {
        tags: ['admin'],
        summary: "Erase the customer's personal data (orders kept for the books); refused while an order is under way",
        params: customerIdParams,
        body: eraseCustomerBody,
        response: answers(eraseCustomerResult, 'write', 'login', 'forbidden', 'notFound', 'conflict'),
      },
    },
    async (request) =>
      ok(
        await eraseCustomer(actingContext(request), {
          id: request.params.id,
          confirmEmail: request.body.confirm_email,
        }),
      ),
  );
};
