import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { areaNode, areaQuery, type AreaNode } from '../../domains/areas/areas.schemas';
import { getAreaChildren, getAreaTree, type AreaAnswer } from '../../domains/areas/areas.service';
import { answers, ok } from '../envelope';

/**
 * Browsers and proxies may keep the answer for a while and then revalidate with the ETag.
 * The tree follows the `country_list` setting, so an operator's change shows within this
 * time; `name` follows the request's language, hence the Vary list (see requestLocale).
 */
const CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=3600';
const VARY = 'lang, Cookie, Accept-Language';

function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}

/**
 * The tree is built once per country list and language (areas.service), so its envelope
 * and JSON text are kept too: the first answer goes through the app's zod serializer,
 * later ones reuse its text (about 4 ms of encoding saved per full answer).
 */
const envelopes = new WeakMap<AreaAnswer, ReturnType<typeof ok<AreaNode[]>>>();
const serializedBodies = new WeakMap<object, string>();

function envelopeOfAnswer(answer: AreaAnswer) {
  let envelope = envelopes.get(answer);
  if (!envelope) {
    envelope = ok(answer.areas);
    envelopes.set(answer, envelope);
  }
  return envelope;
}

const cachingSerializerCompiler: FastifySerializerCompiler<unknown> = (routeSchema) => {
  const serialize = serializerCompiler(routeSchema as Parameters<typeof serializerCompiler>[0]);
  return (data) => {
    if (typeof data !== 'object' || data === null) return serialize(data);
    let text = serializedBodies.get(data);
    if (text === undefined) {
      text = serialize(data);
      serializedBodies.set(data, text);
    }
    return text;
  };
};

/** SPEC section 7's `GET /area/all`: the address form's country/province/city options. */
export const areaRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/area/all',
    {
      serializerCompiler: cachingSerializerCompiler,
      schema: {
        tags: ['area'],
        summary:
          'Countries of the country_list setting with their provinces/states and (China) cities, names in English and Chinese',
        description:
          "Without parent_id: the whole tree. With parent_id (a country or province/state id): only that node's children, " +
          'including the full city list of a state outside China. Sends ETag and Cache-Control; answers 304 to a matching If-None-Match.',
        querystring: areaQuery,
        response: {
          ...answers(z.array(areaNode), 'invalid', 'notFound'),
          304: z.null().describe('Not modified: the If-None-Match ETag is current; no body'),
        },
      },
    },
    async (request, reply) => {
      const { parent_id: parentId } = request.query;
      const answer = parentId
        ? await getAreaChildren(request.ctx, { parentId, locale: request.ctx.locale })
        : await getAreaTree(request.ctx, { locale: request.ctx.locale });
      reply.header('etag', answer.etag).header('cache-control', CACHE_CONTROL).header('vary', VARY);
      if (matchesEtag(request.headers['if-none-match'], answer.etag))
        // A 304 has no body: `undefined` skips the serializer, which would write `null`.
        return reply.code(304).send(undefined as unknown as null);
      return envelopeOfAnswer(answer);
    },
  );
};
