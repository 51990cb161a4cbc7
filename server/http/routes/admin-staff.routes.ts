import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PERMISSIONS } from '../../domains/staff/permissions';
import { inviteStaff, pendingInvitations, revokeInvitation } from '../../domains/staff/invitations.service';
import { createRole, deleteRole, listRoles, updateRole } from '../../domains/staff/roles.service';
import {
  disableStaff,
  enableStaff,
  endStaffSession,
  listStaff,
  staffDetail,
  updateStaff,
} from '../../domains/staff/staff-members.service';
import {
  idParams,
  invitationView,
  inviteBody,
  permissionList,
  roleBody,
  roleView,
  staffMemberDetail,
  staffMemberView,
  staffSessionParams,
  updateStaffBody,
} from '../../domains/staff/staff.schemas';
import { actingContext, signedInStaff } from '../admin-api';
import { answers, ok } from '../envelope';

const tags = ['admin'];
const manage = { permission: 'staff:manage' } as const;

/**
 * Staff and roles (`staff:manage`; docs/console.md): members, invitations, roles and the
 * permission list. The rules (last Owner, Owner-only grants, refund limits) live in
 * server/domains/staff.
 */
export const adminStaffRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/staff',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Staff members with roles and two-step status',
        response: answers(z.array(staffMemberView), 'login', 'forbidden'),
      },
    },
    async (request) => ok(await listStaff(request.ctx)),
  );

  app.get(
    '/staff/invitations',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Pending invitations',
        response: answers(z.array(invitationView), 'login', 'forbidden'),
      },
    },
    async (request) => ok(await pendingInvitations(request.ctx)),
  );

  app.post(
    '/staff/invitations',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Invite someone by email with roles (the link is valid 72 hours)',
        body: inviteBody,
        response: answers(invitationView, 'write', 'login', 'forbidden', 'conflict'),
      },
    },
    async (request) => ok(await inviteStaff(actingContext(request), signedInStaff(request), request.body)),
  );

  app.delete(
    '/staff/invitations/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Revoke a pending invitation',
        params: idParams,
        response: answers(z.null(), 'write', 'login', 'forbidden', 'notFound'),
      },
    },
    async (request) => {
      await revokeInvitation(actingContext(request), request.params.id);
      return ok(null);
    },
  );

  app.get(
    '/staff/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'One member with their live sessions',
        params: idParams,
        response: answers(staffMemberDetail, 'invalid', 'login', 'forbidden', 'notFound'),
      },
    },
    async (request) => ok(await staffDetail(request.ctx, request.params.id, signedInStaff(request).sessionId)),
  );

  app.put(
    '/staff/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: "Change a member's name and roles (only an Owner gives or takes the Owner role)",
        params: idParams,
        body: updateStaffBody,
        response: answers(staffMemberView, 'write', 'login', 'forbidden', 'notFound', 'conflict'),
      },
    },
    async (request) =>
      ok(await updateStaff(actingContext(request), signedInStaff(request), request.params.id, request.body)),
  );

  app.post(
    '/staff/:id/disable',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Disable a member and end their sessions (never the last active Owner)',
        params: idParams,
        response: answers(staffMemberView, 'write', 'login', 'forbidden', 'notFound', 'conflict'),
      },
    },
    async (request) => ok(await disableStaff(actingContext(request), signedInStaff(request), request.params.id)),
  );

  app.post(
    '/staff/:id/enable',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Enable a disabled member',
        params: idParams,
        response: answers(staffMemberView, 'write', 'login', 'forbidden', 'notFound'),
      },
    },
    async (request) => ok(await enableStaff(actingContext(request), request.params.id)),
  );

  app.delete(
    '/staff/:id/sessions/:sessionId',
    {
      config: manage,
      schema: {
        tags,
        summary: "End one of a member's sessions",
        params: staffSessionParams,
        response: answers(z.null(), 'write', 'login', 'forbidden', 'notFound'),
      },
    },
    async (request) => {
      await endStaffSession(actingContext(request), request.params.id, request.params.sessionId);
      return ok(null);
    },
  );

  app.get(
    '/roles',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Roles with their permissions and member counts',
        response: answers(z.array(roleView), 'login', 'forbidden'),
      },
    },
    async (request) => ok(await listRoles(request.ctx)),
  );

  app.get(
    '/permissions',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Every permission, for the role editor',
        response: answers(permissionList, 'login', 'forbidden'),
      },
    },
    async () => ok([...PERMISSIONS]),
  );

  app.post(
    '/roles',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Create a custom role (a refund limit other than 0 needs an Owner)',
        body: roleBody,
        response: answers(roleView, 'write', 'login', 'forbidden'),
      },
    },
    async (request) => ok(await createRole(actingContext(request), signedInStaff(request), request.body)),
  );

  app.put(
    '/roles/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Replace a role; built-in roles only take a new refund limit, and only from an Owner',
        params: idParams,
        body: roleBody,
        response: answers(roleView, 'write', 'login', 'forbidden', 'notFound', 'conflict'),
      },
    },
    async (request) =>
      ok(await updateRole(actingContext(request), signedInStaff(request), request.params.id, request.body)),
  );

  app.delete(
    '/roles/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Delete a custom role nobody holds',
        params: idParams,
        response: answers(z.null(), 'write', 'login', 'forbidden', 'notFound', 'conflict'),
      },
    },
    async (request) => {
      await deleteRole(actingContext(request), request.params.id);
      return ok(null);
    },
  );
};
