import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { revokeStaffSession } from '../../domains/staff/staff-sessions.service';
import { staffSessionState } from '../../domains/staff/staff.schemas';
import { staffSelfOf, staffSetupRequired } from '../../domains/staff/staff.service';
import { clearStaffSessionCookie, signedInStaff } from '../admin-api';
import { answers, ok } from '../envelope';

/** The console's session: who is signed in (if anyone), and sign-out. */
export const adminSessionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/session',
    {
      config: { staffAccess: 'public' },
      schema: {
        tags: ['admin'],
        summary: 'The signed-in staff member, or null; whether the first-start setup is still open',
        response: answers(staffSessionState),
      },
    },
    async (request) => {
      const staff = request.ctx.staff;
      return ok({
        staff: staff ? staffSelfOf(staff) : null,
        setup_required: staff ? false : await staffSetupRequired(request.ctx),
      });
    },
  );

  app.post(
    '/logout',
    {
      config: { staffAccess: 'signed-in' },
      schema: { tags: ['admin'], summary: 'Sign out of the console', response: answers(z.null(), 'write', 'login') },
    },
    async (request, reply) => {
      const staff = signedInStaff(request);
      await revokeStaffSession(request.ctx, staff.id, staff.sessionId);
      clearStaffSessionCookie(reply);
      return ok(null);
    },
  );
};
