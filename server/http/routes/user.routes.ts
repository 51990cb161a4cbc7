import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { translate } from '../../../i18n';
import {
  changePassword,
  findUserById,
  loginAnswer,
  loginWithPassword,
  register,
  updateProfile,
  userView,
  type LoginResult,
} from '../../domains/customers/accounts.service';
import {
  changePasswordSchema,
  codeSentAnswer,
  googleAuthUrl,
  loginAnswerSchema,
  loginByCodeSchema,
  loginSchema,
  logoutBody,
  platformLoginSchema,
  registerSchema,
  sendCodeSchema,
  updateProfileSchema,
  userView as userViewSchema,
} from '../../domains/customers/accounts.schemas';
import { loginWithCode, sendLoginCode } from '../../domains/customers/email-codes.service';
import { finishGoogleSignIn, signInWithIdToken, startGoogleSignIn } from '../../domains/customers/google.service';
import { revokeSession, revokeUserSessions } from '../../domains/customers/sessions.service';
import { BadRequestError, LoginRequiredError } from '../../shared/errors';
import { clearSessionCookie, requireUser, startWebSession } from '../auth';
import { answers, ok } from '../envelope';
import { adoptGuestCart } from '../guest-cart';
import { siteOriginOf } from '../request-context';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Every way to log in answers alike: the tokens for API clients, the cookies for the web. */
export async function answerLogin(
  request: FastifyRequest,
  reply: FastifyReply,
  result: LoginResult,
  messageKey: 'accounts.loginOk' | 'accounts.registerOk' = 'accounts.loginOk',
) {
  startWebSession(reply, result.session);
  await adoptGuestCart(request, reply, result.user.id);
  reply.header('cache-control', 'no-store');
  return ok(loginAnswer(result), translate(request.ctx.locale, messageKey));
}

/** The redirect URI registered with Google. */
function googleRedirectUri(request: FastifyRequest): string {
  return `${siteOriginOf(request)}/token_url`;
}

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/user/registe',
    {
      schema: {
        tags: ['user'],
        summary: 'Register and log in (captcha required)',
        body: registerSchema,
        response: answers(loginAnswerSchema, 'write', 'captcha', 'conflict', 'tooMany'),
      },
    },
    async (request, reply) =>
      answerLogin(
        request,
        reply,
        await register(request.ctx, { ...request.body, clientIp: request.ip }),
        'accounts.registerOk',
      ),
  );

  app.post(
    '/user/login',
    {
      schema: {
        tags: ['user'],
        summary: 'Log in with email and password (captcha required)',
        body: loginSchema,
        response: answers(loginAnswerSchema, 'write', 'captcha', 'tooMany'),
      },
    },
    async (request, reply) =>
      answerLogin(request, reply, await loginWithPassword(request.ctx, { ...request.body, clientIp: request.ip })),
  );

  app.post(
    '/user/sendCode',
    {
      schema: {
        tags: ['user'],
        summary: 'Email a 6-digit login code (captcha required; resend after 60 s)',
        body: sendCodeSchema,
        response: answers(codeSentAnswer, 'write', 'captcha', 'tooMany'),
      },
    },
    async (request) => {
      const sent = await sendLoginCode(request.ctx, {
        ...request.body,
        clientIp: request.ip,
        locale: request.ctx.locale,
      });
      return ok(sent, translate(request.ctx.locale, 'accounts.codeSent'));
    },
  );

  app.post(
    '/user/loginByCode',
    {
      schema: {
        tags: ['user'],
        summary: 'Log in with an emailed code (opens an account for a new email)',
        body: loginByCodeSchema,
        response: answers(loginAnswerSchema, 'write', 'tooMany'),
      },
    },
    async (request, reply) =>
      answerLogin(request, reply, await loginWithCode(request.ctx, { ...request.body, clientIp: request.ip })),
  );

  app.post(
    '/user/login/platform',
    {
      schema: {
        tags: ['user'],
        summary:
          'Google sign-in: {platform: 3} answers auth_url (code flow with PKCE); with id_token it logs in at once',
        body: platformLoginSchema,
        response: answers(z.union([googleAuthUrl, loginAnswerSchema]), 'write', 'tooMany'),
      },
    },
    async (request, reply) => {
      if (!request.ctx.env.GOOGLE_CLIENT_ID) throw new BadRequestError('accounts.google.clientIdRequired');
      const { id_token: idToken, redirect } = request.body;
      if (idToken)
        return answerLogin(request, reply, await signInWithIdToken(request.ctx, { idToken, clientIp: request.ip }));
      reply.header('cache-control', 'no-store');
      return ok(
        await startGoogleSignIn(request.ctx, {
          redirect,
          redirectUri: googleRedirectUri(request),
          locale: request.ctx.locale,
          clientIp: request.ip,
        }),
      );
    },
  );

  app.post(
    '/user/logout',
    {
      preHandler: requireUser,
      schema: {
        tags: ['user'],
        summary: 'Log out this session, or every session of the user with all: true',
        body: logoutBody,
        response: answers(z.null(), 'write', 'login'),
      },
    },
    async (request, reply) => {
      const user = request.ctx.user!;
      if (request.body?.all) await revokeUserSessions(request.ctx, user.id);
      else await revokeSession(request.ctx, user.sessionId);
      clearSessionCookie(reply);
      return ok(null, translate(request.ctx.locale, 'accounts.logoutOk'));
    },
  );

  app.get(
    '/user/info',
    {
      preHandler: requireUser,
      schema: {
        tags: ['user'],
        summary: 'The logged-in user (login required)',
        response: answers(userViewSchema, 'login'),
      },
    },
    async (request, reply) => {
      const user = await findUserById(request.ctx, request.ctx.user!.id);
      if (!user) throw new LoginRequiredError();
      reply.header('cache-control', 'private, no-store');
      return ok(userView(user));
    },
  );

  app.put(
    '/user/info',
    {
      preHandler: requireUser,
      schema: {
        tags: ['user'],
        summary: 'Change username, avatar or sex',
        body: updateProfileSchema,
        response: answers(userViewSchema, 'write', 'login', 'conflict'),
      },
    },
    async (request) =>
      ok(
        await updateProfile(request.ctx, request.ctx.user!.id, request.body),
        translate(request.ctx.locale, 'accounts.savedOk'),
      ),
  );

  app.put(
    '/user/password',
    {
      preHandler: requireUser,
      schema: {
        tags: ['user'],
        summary: 'Change the password (logs out the other sessions)',
        body: changePasswordSchema,
        response: answers(z.null(), 'write', 'login', 'tooMany'),
      },
    },
    async (request) => {
      const { id: userId, sessionId } = request.ctx.user!;
      await changePassword(request.ctx, { userId, sessionId }, request.body);
      return ok(null, translate(request.ctx.locale, 'accounts.savedOk'));
    },
  );
};

/**
 * `GET /token_url` (the redirect URI, outside /v1): finishes Google's code flow, sets the
 * session cookie and sends the browser back to where it started; on failure to the home
 * page with `?login_error=google` (or `disabled` for an account staff disabled), which the
 * storefront shows as a message.
 */
export const googleCallbackRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/token_url',
    { schema: { hide: true, querystring: z.record(z.string(), z.string()) } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const finished = await finishGoogleSignIn(request.ctx, request.query);
      if (!finished.result) {
        const error = finished.reason === 'disabled' ? 'disabled' : 'google';
        return reply.redirect(`/${finished.locale ?? request.ctx.locale}/?login_error=${error}`, 302);
      }
      startWebSession(reply, finished.result.session);
      await adoptGuestCart(request, reply, finished.result.user.id);
      return reply.redirect(finished.redirectTo, 302);
    },
  );
};
