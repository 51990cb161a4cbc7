import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { acceptInvitation, invitationPreview } from '../../domains/staff/invitations.service';
import { changeMyPassword, updateMyProfile } from '../../domains/staff/profile.service';
import { completeSetup, setupLinkState } from '../../domains/staff/setup.service';
import { signInWithPassword, signInWithSecondFactor, type RequestOrigin } from '../../domains/staff/sign-in.service';
import { endStaffSession, sessionViewsOf } from '../../domains/staff/staff-members.service';
import {
  activeStaffSessions,
  revokeStaffSession,
  type IssuedStaffSession,
} from '../../domains/staff/staff-sessions.service';
import {
  acceptInvitationBody,
  changeStaffPasswordBody,
  idParams,
  invitationPreview as invitationPreviewSchema,
  recoveryCodes,
  setupBody,
  setupLinkState as setupLinkStateSchema,
  staffLoginAnswer,
  staffLoginBody,
  staffSecondFactorBody,
  staffSelf,
  staffSessionState,
  staffSessionView,
  tokenParams,
  totpCodeBody,
  totpEnrolment,
  updateMeBody,
} from '../../domains/staff/staff.schemas';
import { selfOfNewSession, staffSelfOf, staffSetupRequired } from '../../domains/staff/staff.service';
import {
  confirmTotpEnrolment,
  disableTotp,
  regenerateRecoveryCodes,
  startTotpEnrolment,
} from '../../domains/staff/two-step.service';
import { actingContext, clearStaffSessionCookie, setStaffSessionCookie, signedInStaff } from '../admin-api';
import { answers, ok } from '../envelope';

function originOf(request: FastifyRequest): RequestOrigin {
  const userAgent = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof userAgent === 'string' ? userAgent : null, requestId: request.id };
}

/** Sets the new session's cookie and answers who is now signed in. */
async function signedIn(request: FastifyRequest, reply: FastifyReply, session: IssuedStaffSession) {
  setStaffSessionCookie(reply, session);
  return selfOfNewSession(request.ctx, session.token);
}

const tags = ['admin'];
const publicAccess = { staffAccess: 'public' } as const;
const signedInAccess = { staffAccess: 'signed-in' } as const;

/**
 * The console's session and the member's own profile (docs/console.md, "Admin API: session,
 * profile, staff and roles"): sign-in in one or two steps, the first-start setup link,
 * accepting an invitation, and what any signed-in member may do to their own account.
 */
export const adminSessionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/session',
    {
      config: publicAccess,
      schema: {
        tags,
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
    '/login',
    {
      config: publicAccess,
      schema: {
        tags,
        summary: 'Sign in with email and password: a session, or a challenge for the second step',
        body: staffLoginBody,
        response: answers(staffLoginAnswer, 'write', 'tooMany'),
      },
    },
    async (request, reply) => {
      const outcome = await signInWithPassword(request.ctx, request.body, originOf(request));
      if (outcome.status === 'second_factor')
        return ok({ status: outcome.status, challenge: outcome.challenge, expires_in: outcome.expiresIn });
      return ok({ status: outcome.status, staff: await signedIn(request, reply, outcome.session) });
    },
  );

  app.post(
    '/login/second-factor',
    {
      config: publicAccess,
      schema: {
        tags,
        summary: 'Second step of sign-in: the challenge with an authenticator code or a recovery code',
        body: staffSecondFactorBody,
        response: answers(staffSelf, 'write', 'tooMany'),
      },
    },
    async (request, reply) => {
      const { session } = await signInWithSecondFactor(request.ctx, request.body, originOf(request));
      return ok(await signedIn(request, reply, session));
    },
  );

  app.post(
    '/logout',
    {
      config: signedInAccess,
      schema: { tags, summary: 'Sign out of the console', response: answers(z.null(), 'write', 'login') },
    },
    async (request, reply) => {
      const staff = signedInStaff(request);
      await revokeStaffSession(request.ctx, staff.id, staff.sessionId);
      clearStaffSessionCookie(reply);
      return ok(null);
    },
  );

  app.get(
    '/setup/:token',
    {
      config: publicAccess,
      schema: {
        tags,
        summary: 'Whether a first-start setup link still creates the Owner',
        params: tokenParams,
        response: answers(setupLinkStateSchema, 'invalid', 'tooMany'),
      },
    },
    async (request) => ok(await setupLinkState(request.ctx, request.params.token, request.ip)),
  );

  app.post(
    '/setup',
    {
      config: publicAccess,
      schema: {
        tags,
        summary: 'Create the Owner from the setup link and sign them in',
        body: setupBody,
        response: answers(staffSelf, 'write', 'notFound', 'conflict', 'tooMany'),
      },
    },
    async (request, reply) => {
      const { session } = await completeSetup(request.ctx, request.body, originOf(request));
      return ok(await signedIn(request, reply, session));
    },
  );

  app.get(
    '/invitations/:token',
    {
      config: publicAccess,
      schema: {
        tags,
        summary: 'An invitation as the invited person sees it before accepting (404 when used or expired)',
        params: tokenParams,
        response: answers(invitationPreviewSchema, 'invalid', 'notFound', 'tooMany'),
      },
    },
    async (request) => ok(await invitationPreview(request.ctx, request.params.token, request.ip)),
  );

  app.post(
    '/invitations/accept',
    {
      config: publicAccess,
      schema: {
        tags,
        summary: 'Accept an invitation: choose a name and password, arrive signed in with the invited roles',
        body: acceptInvitationBody,
        response: answers(staffSelf, 'write', 'notFound', 'conflict', 'tooMany'),
      },
    },
    async (request, reply) => {
      const { session } = await acceptInvitation(request.ctx, request.body, originOf(request));
      return ok(await signedIn(request, reply, session));
    },
  );

  app.put(
    '/me',
    {
      config: signedInAccess,
      schema: {
        tags,
        summary: 'Change your name and language',
        body: updateMeBody,
        response: answers(staffSelf, 'write', 'login'),
      },
    },
    async (request) => {
      const staff = signedInStaff(request);
      await updateMyProfile(actingContext(request), staff, request.body);
      return ok(staffSelfOf({ ...staff, name: request.body.name, locale: request.body.locale }));
    },
  );

  app.put(
    '/me/password',
    {
      config: signedInAccess,
      schema: {
        tags,
        summary: 'Change your password (your other sessions end)',
        body: changeStaffPasswordBody,
        response: answers(z.object({ sessions_ended: z.number().int() }), 'write', 'login', 'tooMany'),
      },
    },
    async (request) => {
      const { sessionsEnded } = await changeMyPassword(actingContext(request), signedInStaff(request), request.body);
      return ok({ sessions_ended: sessionsEnded });
    },
  );

  app.post(
    '/me/totp',
    {
      config: signedInAccess,
      schema: {
        tags,
        summary: 'Start setting up two-step sign-in: the secret and its QR code, shown this once',
        response: answers(totpEnrolment, 'write', 'login', 'conflict'),
      },
    },
    async (request) => ok(await startTotpEnrolment(request.ctx, signedInStaff(request))),
  );

  app.post(
    '/me/totp/confirm',
    {
      config: signedInAccess,
      schema: {
        tags,
        summary: 'Finish setting up two-step sign-in with a first code; answers ten recovery codes, shown this once',
        body: totpCodeBody,
        response: answers(recoveryCodes, 'write', 'login', 'conflict', 'tooMany'),
      },
    },
    async (request) =>
      ok(await confirmTotpEnrolment(actingContext(request), signedInStaff(request), request.body.code)),
  );

  app.delete(
    '/me/totp',
    {
      config: signedInAccess,
      schema: {
        tags,
        summary: 'Turn two-step sign-in off with a current code (refused when your role requires it)',
        body: totpCodeBody,
        response: answers(z.null(), 'write', 'login', 'conflict', 'tooMany'),
      },
    },
    async (request) => {
      await disableTotp(actingContext(request), signedInStaff(request), request.body.code);
      return ok(null);
    },
  );

  app.post(
    '/me/recovery-codes',
    {
      config: signedInAccess,
      schema: {
        tags,
        summary: 'Ten new recovery codes for the old ones, with a current authenticator code',
        body: totpCodeBody,
        response: answers(recoveryCodes, 'write', 'login', 'conflict', 'tooMany'),
      },
    },
    async (request) =>
      ok(await regenerateRecoveryCodes(actingContext(request), signedInStaff(request), request.body.code)),
  );

  app.get(
    '/me/sessions',
    {
      config: signedInAccess,
      schema: { tags, summary: 'Your live console sessions', response: answers(z.array(staffSessionView), 'login') },
    },
    async (request) => {
      const staff = signedInStaff(request);
      return ok(sessionViewsOf(await activeStaffSessions(request.ctx, [staff.id]), staff.sessionId));
    },
  );

  app.delete(
    '/me/sessions/:id',
    {
      config: signedInAccess,
      schema: {
        tags,
        summary: 'End one of your sessions (ending this one signs you out)',
        params: idParams,
        response: answers(z.null(), 'write', 'login', 'notFound'),
      },
    },
    async (request, reply) => {
      const staff = signedInStaff(request);
      await endStaffSession(actingContext(request), staff.id, request.params.id);
      if (request.params.id === staff.sessionId) clearStaffSessionCookie(reply);
      return ok(null);
    },
  );
};
