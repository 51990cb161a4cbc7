import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createRequestHandler, type ServerBuild } from 'react-router';
import { isLocale } from '../../i18n/locales';
import { services } from '../services';
import { resolveSession } from './auth';
import { CSRF_COOKIE } from './csrf';
import type { StorefrontLoadContext } from './storefront-context';

export type ServerBuildSource = () => Promise<ServerBuild>;

function toWebRequest(request: FastifyRequest, reply: FastifyReply): Request {
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, String(value));
  }
  const controller = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && Buffer.isBuffer(request.body);
  return new Request(url, {
    method: request.method,
    headers,
    signal: controller.signal,
    body: hasBody ? new Uint8Array(request.body as Buffer) : undefined,
  });
}

async function sendWebResponse(reply: FastifyReply, response: Response): Promise<void> {
  reply.status(response.status);
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie') reply.header(name, value);
  }
  for (const cookie of response.headers.getSetCookie()) reply.header('set-cookie', cookie);
  if (!response.body) return reply.send();
  return reply.send(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream));
}

/**
 * Every path that is not API, health or a static file is a storefront page rendered by
 * React Router. Bodies of page form posts arrive as raw bytes (within the body limit) and
 * are handed to React Router unparsed.
 */
export async function registerStorefront(
  app: FastifyInstance,
  options: { loadBuild: ServerBuildSource; mode: 'development' | 'production' },
): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

    let handler: ReturnType<typeof createRequestHandler> | undefined;
    const handlerFor = async () => {
      if (options.mode === 'development') return createRequestHandler(await options.loadBuild(), options.mode);
      handler ??= createRequestHandler(await options.loadBuild(), options.mode);
      return handler;
    };

    scope.route({
      method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url: '/*',
      handler: async (request, reply) => {
        if (request.cookies['access_token']) await resolveSession(request);
        // A page's language is its URL's, whatever the headers say.
        const pathLocale = request.url.split('/')[1]?.split('?')[0];
        const context: StorefrontLoadContext = {
          ctx: isLocale(pathLocale) ? { ...request.ctx, locale: pathLocale } : request.ctx,
          services,
          csrfToken: request.cookies[CSRF_COOKIE] ?? '',
        };
        const handle = await handlerFor();
        const response = await handle(toWebRequest(request, reply), context as never);
        return sendWebResponse(reply, response);
      },
    });
  });
}
