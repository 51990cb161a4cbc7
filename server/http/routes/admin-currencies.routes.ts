import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  exchangeRateBody,
  exchangeRateParams,
  exchangeRatesView,
  exchangeRateView,
} from '../../domains/exchange-rates/exchange-rates.schemas';
import { listExchangeRates, setExchangeRate } from '../../domains/exchange-rates/exchange-rates.service';
import { getSiteSettings } from '../../domains/site-settings/site-settings.service';
import { actingContext } from '../admin-api';
import { answers, ok } from '../envelope';

const tags = ['admin'];
const settings = { permission: 'settings:write' } as const;

/** Exchange rates in the console (`settings:write`; docs/console.md, "Currencies"; ADR 0144). */
export const adminCurrencyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/exchange-rates',
    {
      config: settings,
      schema: {
        tags,
        summary:
          'Each display currency with its rate per settlement unit, source, time, who set it and whether it is stale',
        response: answers(exchangeRatesView, 'login', 'forbidden'),
      },
    },
    async (request) => {
      const { currency } = await getSiteSettings(request.ctx);
      return ok(await listExchangeRates(request.ctx, currency));
    },
  );

  app.put(
    '/exchange-rates/:currency',
    {
      config: settings,
      schema: {
        tags,
        summary: 'Set one rate with its source (audited; retires every cached page so prices follow at once)',
        params: exchangeRateParams,
        body: exchangeRateBody,
        response: answers(exchangeRateView, 'write', 'login', 'forbidden'),
      },
    },
    async (request) => {
      const { currency } = await getSiteSettings(request.ctx);
      return ok(
        await setExchangeRate(actingContext(request), {
          ...request.body,
          currency: request.params.currency,
          settlement: currency,
        }),
      );
    },
  );
};
