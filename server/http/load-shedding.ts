import { getHeapStatistics } from 'node:v8';
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { translate } from '../../i18n';
import type { Env } from '../shared/env';
import { pathLocaleOf } from './cache-keys';
import { failure } from './envelope';
import { isApiRequest } from './error-handler';
import { requestLocale } from './request-context';

/** What a shed request (and /healthz under pressure) is told: come back this many seconds later. */
export const OVERLOAD_RETRY_AFTER_SECONDS = 10;

/** Past this share of V8's heap limit the process is close to running out of memory. */
const DEFAULT_HEAP_SHARE = 0.9;

/**
 * The answer to a request shed under overload: the envelope for the API, a page in the
 * address's language for the storefront (a few hundred bytes, no React render), never stored
 * by a cache. Other requests (health probes, static files, images) pass: they are cheap and
 * a page served from the response cache needs its scripts and pictures.
 */
function shed(request: FastifyRequest, reply: FastifyReply): string | ReturnType<typeof failure> | undefined {
  const page = request.routeOptions.config.storefrontPage === true;
  if (!page && !isApiRequest(request)) return undefined;
  reply.status(503).header('retry-after', String(OVERLOAD_RETRY_AFTER_SECONDS)).header('cache-control', 'no-store');
  const locale = (page && pathLocaleOf(request.url)) || requestLocale(request);
  const message = translate(locale, 'error.overloaded', { seconds: OVERLOAD_RETRY_AFTER_SECONDS });
  if (!page) return failure(503, message);
  reply.type('text/html; charset=utf-8');
  return busyPage(locale, message, translate(locale, 'shell.tryAgain'));
}

// The shop's colours, inline: under overload the page must not cost a second request.
const BUSY_PAGE_STYLE =
  'body{margin:0;min-height:100vh;display:grid;place-items:center;font:17px/1.6 system-ui,-apple-system,"Segoe UI","PingFang SC","Noto Sans CJK SC",sans-serif;background:#fbf8f3;color:#2d241c}' +
  'main{max-width:26rem;padding:2rem;text-align:center}p{margin:0 0 1.5rem}' +
  'a{display:inline-block;padding:.7rem 1.6rem;border-radius:999px;background:#c2410c;color:#fff;font-weight:600;text-decoration:none}' +
  '@media (prefers-color-scheme:dark){body{background:#141210;color:#f1ece6}a{background:#fb923c;color:#1c1917}}';

/** Our own message texts, which hold no markup; the link reloads the page the buyer asked for. */
function busyPage(locale: string, message: string, tryAgain: string): string {
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${message}</title><style>${BUSY_PAGE_STYLE}</style></head><body><main><p>${message}</p><a href="">${tryAgain}</a></main></body></html>`;
}

/**
 * Load shedding with @fastify/under-pressure (docs/decisions/0074-slow-clients-and-load-shedding.md):
 * while the event loop lags or is busy past its limit, or the heap or RSS is past its ceiling,
 * the API and page renders answer 503 with Retry-After at once instead of queueing without
 * bound. Register it after the response cache, whose hits are served whatever the pressure.
 */
export async function registerLoadShedding(app: FastifyInstance, env: Env): Promise<void> {
  await app.register(underPressure, {
    maxEventLoopDelay: env.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS,
    maxEventLoopUtilization: env.OVERLOAD_MAX_EVENT_LOOP_UTILIZATION,
    // The share of each sample interval the loop was busy, not the average since start.
    eventLoopUtilizationMode: 'interval',
    maxHeapUsedBytes:
      env.OVERLOAD_MAX_HEAP_USED_BYTES ?? Math.floor(getHeapStatistics().heap_size_limit * DEFAULT_HEAP_SHARE),
    maxRssBytes: env.OVERLOAD_MAX_RSS_BYTES,
    // The plugin sends what the handler returns and lets the request through on undefined;
    // its type only admits void.
    pressureHandler: shed as (request: FastifyRequest, reply: FastifyReply) => void,
  });
}
