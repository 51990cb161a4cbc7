import path from 'node:path';
import { constants as zlibConstants } from 'node:zlib';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { registerCsrfProtection } from './http/csrf';
import { registerResponseCache, serverWithFrontDoor, type FrontDoor } from './http/response-cache';
import { registerSecurityHeaders } from './http/security-headers';
import { answerFrameworkError, registerErrorHandling } from './http/error-handler';
import { registerLoadShedding } from './http/load-shedding';
import { registerGracefulStop, type StopState } from './http/graceful-stop';
import { registerRequestContext, requestIdOf } from './http/request-context';
import { registerAdminGate } from './http/admin-api';
import { addressRoutes } from './http/routes/address.routes';
import { adminSessionRoutes } from './http/routes/admin-session.routes';
import { adminStaffRoutes } from './http/routes/admin-staff.routes';
import { adminOrderRoutes } from './http/routes/admin-orders.routes';
import { adminDutyRoutes } from './http/routes/admin-duties.routes';
import { adminRefundRoutes } from './http/routes/admin-refunds.routes';
import { adminAfterSaleRoutes } from './http/routes/admin-after-sales.routes';
import { adminCustomerRoutes } from './http/routes/admin-customers.routes';
import { adminAuditRoutes } from './http/routes/admin-audit.routes';
import { adminSettingsRoutes } from './http/routes/admin-settings.routes';
import { adminContentRoutes } from './http/routes/admin-content.routes';
import { adminGroupRoutes } from './http/routes/admin-groups.routes';
import { adminInventoryRoutes } from './http/routes/admin-inventory.routes';
import { adminMediaRoutes } from './http/routes/admin-media.routes';
import { adminShippingRoutes } from './http/routes/admin-shipping.routes';
import { adminCurrencyRoutes } from './http/routes/admin-currencies.routes';
import { adminCouponRoutes } from './http/routes/admin-coupons.routes';
import { adminProductRoutes } from './http/routes/admin-products.routes';
import { adminProductCsvRoutes } from './http/routes/admin-product-csv.routes';
import { areaRoutes } from './http/routes/area.routes';
import { captchaRoutes } from './http/routes/captcha.routes';
import { cartRoutes } from './http/routes/cart.routes';
import { visitorRoutes } from './http/routes/visitor.routes';
import { checkoutRoutes } from './http/routes/checkout.routes';
import { catalogRoutes } from './http/routes/catalog.routes';
import { OneLineRequestLog } from './http/request-log';
import {
  compressSmallBodies,
  COMPRESSION_THRESHOLD_BYTES,
  DYNAMIC_BROTLI_QUALITY,
} from './http/small-body-compression';
import { requestLineLogger } from './shared/logger';
import { healthRoutes } from './http/routes/health.routes';
import { paymentRoutes } from './http/routes/payment.routes';
import { sandboxGatewayRoutes } from './http/routes/sandbox-gateway.routes';
import { orderRoutes } from './http/routes/order.routes';
import { afterSaleRoutes } from './http/routes/after-sale.routes';
import { imageRoutes } from './http/routes/images.routes';
import { seoRoutes } from './http/routes/seo.routes';
import { siteRoutes } from './http/routes/site.routes';
import { uploadRoutes } from './http/routes/upload.routes';
import { googleCallbackRoutes, userRoutes } from './http/routes/user.routes';
import { registerBrandFiles, UNVERSIONED_BRAND } from './http/brand-files';
import { registerStorefront, type ServerBuildSource } from './http/storefront';
import { createPrivatePageCache } from './http/private-page-cache';
import { zodValidatorCompiler } from './http/validation';
import { registerBackgroundJobs, type BackgroundJobOptions } from './jobs/background-jobs';
import { NotFoundError } from './shared/errors';
import { sandboxPaymentsOn } from './domains/payments/payment-providers';
import { secureCookies, servedOverHttps } from './shared/site-origin';
import type { AppContext } from './context';
import { pathWithoutQuery } from './shared/url-path';

export interface BuildAppOptions {
  appContext: AppContext;
  /** Where the storefront comes from: the production build, or Vite in development. */
  storefront?: { loadBuild: ServerBuildSource; mode: 'development' | 'production'; clientDir?: string };
  /** Vite's connect middleware in development (assets, HMR). */
  devMiddleware?: (app: FastifyInstance) => Promise<void>;
  /** Which background jobs run while the server listens; the payments jobs always do. */
  backgroundJobs?: BackgroundJobOptions;
}

export async function buildApp({
  appContext,
  storefront,
  devMiddleware,
  backgroundJobs = { orderSweep: false },
}: BuildAppOptions): Promise<FastifyInstance> {
  const { env } = appContext;
  // Cache hits are answered in front of Fastify once the response cache exists (server/http/response-cache.ts).
  let frontDoor: FrontDoor | undefined;
  const stop: StopState = { stopping: false };
  const app = Fastify({
    serverFactory: (handler, options) => serverWithFrontDoor(handler, options, () => frontDoor, stop),
    // Slow clients are cut off (docs/decisions/0074-slow-clients-and-load-shedding.md); Node checks
    // the header and request deadlines every `connectionsCheckingInterval` (30 s unless set).
    requestTimeout: env.HTTP_REQUEST_TIMEOUT_SECONDS * 1000,
    keepAliveTimeout: env.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
    connectionTimeout: env.HTTP_IDLE_TIMEOUT_SECONDS * 1000,
    http: { headersTimeout: env.HTTP_HEADERS_TIMEOUT_SECONDS * 1000, connectionsCheckingInterval: 1000 },
    loggerInstance: appContext.log as FastifyBaseLogger,
    bodyLimit: env.BODY_LIMIT_BYTES,
    trustProxy: env.TRUST_PROXY,
    forceCloseConnections: 'idle',
    // A request reaching a closing copy on a kept-alive connection is served (with `Connection:
    // close`), not refused: the balancer sent it there, and a 503 would be ours to answer for.
    return503OnClosing: false,
    requestIdHeader: false,
    logController: new OneLineRequestLog(requestLineLogger(appContext.log)),
    genReqId: requestIdOf,
    routerOptions: { maxParamLength: 200 },
    frameworkErrors: answerFrameworkError({ bodyLimit: env.BODY_LIMIT_BYTES }),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // First hooks of every request: the response cache answers repeats before anything else runs.
  registerGracefulStop(app, stop);
  registerSecurityHeaders(app, { https: servedOverHttps(env) });
  const responseCache = registerResponseCache(app, {
    appContext,
    ttlSeconds: env.PAGE_CACHE_TTL_SECONDS,
    secureCookies: secureCookies(env),
    https: servedOverHttps(env),
  });
  frontDoor = responseCache?.frontDoor;
  // Cache hits above stay cheap under overload; the API and page renders below are shed.
  await registerLoadShedding(app, env);

  await app.register(cookie);
  compressSmallBodies(app);
  await app.register(compress, {
    threshold: COMPRESSION_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY } },
  });
  registerRequestContext(app, appContext);
  registerErrorHandling(app, { bodyLimit: env.BODY_LIMIT_BYTES });
  registerCsrfProtection(app, { secureCookies: secureCookies(env) });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Shop API', version: '1.0.0', description: 'Envelope {code, msg, data}; code 200 is success.' },
      components: {
        securitySchemes: {
          token: { type: 'apiKey', in: 'header', name: 'token' },
          sign: { type: 'apiKey', in: 'header', name: 'sign' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });

  await app.register(healthRoutes, { appContext, stop });
  await app.register(seoRoutes);
  await app.register(googleCallbackRoutes);

  await app.register(
    async (api) => {
      await api.register(siteRoutes);
      await api.register(catalogRoutes);
      await api.register(areaRoutes);
      await api.register(userRoutes);
      await api.register(captchaRoutes);
      await api.register(paymentRoutes, { env });
      await api.register(addressRoutes);
      await api.register(cartRoutes);
      await api.register(visitorRoutes);
      await api.register(orderRoutes);
      await api.register(afterSaleRoutes);
      await api.register(uploadRoutes);
      // The console's API (docs/console.md): every route behind the staff gate, each naming its permission.
      await api.register(
        async (admin) => {
          registerAdminGate(admin);
          await admin.register(adminSessionRoutes);
          await admin.register(adminStaffRoutes);
          await admin.register(adminOrderRoutes);
          await admin.register(adminDutyRoutes);
          await admin.register(adminRefundRoutes);
          await admin.register(adminAfterSaleRoutes);
          await admin.register(adminCustomerRoutes);
          await admin.register(adminAuditRoutes);
          await admin.register(adminSettingsRoutes);
          await admin.register(adminContentRoutes);
          await admin.register(adminGroupRoutes);
          await admin.register(adminInventoryRoutes);
          await admin.register(adminMediaRoutes);
          await admin.register(adminShippingRoutes);
          await admin.register(adminCurrencyRoutes);
          await admin.register(adminCouponRoutes);
          await admin.register(adminProductRoutes);
          await admin.register(adminProductCsvRoutes);
        },
        { prefix: '/admin' },
      );
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
      api.all('/*', { schema: { hide: true } }, async (request) => {
        throw new NotFoundError('error.routeNotFound', { path: pathWithoutQuery(request.url) });
      });
    },
    { prefix: '/v1' },
  );
  await app.register(checkoutRoutes, { prefix: '/v2' });
  app.all('/v2/*', { schema: { hide: true } }, async (request) => {
    throw new NotFoundError('error.routeNotFound', { path: pathWithoutQuery(request.url) });
  });

  await app.register(imageRoutes);
  if (sandboxPaymentsOn(env)) await app.register(sandboxGatewayRoutes, { env });
  await app.register(imageRoutes, { folder: 'uploads' });

  if (devMiddleware) await devMiddleware(app);
  let brand = UNVERSIONED_BRAND;
  if (storefront?.clientDir) {
    brand = await registerBrandFiles(app, path.join(storefront.clientDir, 'brand'));
    await app.register(fastifyStatic, {
      root: storefront.clientDir,
      prefix: '/',
      wildcard: false,
      decorateReply: false,
      // The build writes .br/.gz copies of scripts and styles; cache lifetimes are set just below.
      preCompressed: true,
      cacheControl: false,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
        res.setHeader('vary', 'Accept-Encoding');
      },
    });
  }
  if (storefront) {
    const privatePages = createPrivatePageCache({
      ttlSeconds: env.PRIVATE_PAGE_CACHE_SECONDS,
      maxBytes: env.PRIVATE_PAGE_CACHE_MB * 1024 * 1024,
    });
    await registerStorefront(app, { ...storefront, responseCache, privatePages, brand });
  }
  registerBackgroundJobs(app, appContext, backgroundJobs);

  return app;
}
