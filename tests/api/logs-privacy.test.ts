import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { services } from '../../server/services';
import { createLogger } from '../../server/shared/logger';
import { startTestServer, type TestServer } from '../support/test-server';

/** A log destination that keeps every line, as the process's stdout would receive them. */
function captureLines() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines, text: () => lines.join('\n') };
}

/** The first captured line, parsed; fails the test with a message when nothing was logged. */
function firstLine(lines: string[]) {
  const [line] = lines;
  if (line === undefined) throw new Error('nothing was logged');
  return JSON.parse(line);
}

describe('what a log line may hold', () => {
  it('masks emails and phones in named fields, and never prints a body', () => {
    const sink = captureLines();
    const log = createLogger({ LOG_LEVEL: 'info', NODE_ENV: 'production' }, sink.stream);
    log.info({ to: 'alice.smith@example.com', mobile: '13812345678', body: { street: '5 Hidden Lane' } }, 'mail sent');
    log.info({ order: { email: 'bob@mail.example.org', phone: '+44 7700 900123' } }, 'nested');

    const [first, second] = sink.lines.map((line) => JSON.parse(line));
    expect(first).toMatchObject({
      msg: 'mail sent',
      to: 'a***@example.com',
      mobile: '138****5678',
      body: '[redacted]',
    });
    expect(second.order).toEqual({ email: 'b***@mail.example.org', phone: '+44****0123' });
  });

  it('logs a failed query with its SQL but without the values it was given', () => {
    const sink = captureLines();
    const log = createLogger({ LOG_LEVEL: 'info', NODE_ENV: 'production' }, sink.stream);
    const driverError = Object.assign(
      new Error('duplicate key value violates unique constraint "users_email_unique"'),
      {
        code: '23505',
        detail: 'Key (email)=(carol@example.com) already exists.',
        constraint: 'users_email_unique',
      },
    );
    const failed = new DrizzleQueryError(
      'insert into "users" ("email", "mobile") values ($1, $2)',
      ['carol@example.com', '13900001111'],
      driverError,
    );
    log.error({ err: failed }, 'unhandled error');

    const text = sink.text();
    expect(text).not.toContain('carol@example.com');
    expect(text).not.toContain('13900001111');
    const line = firstLine(sink.lines);
    expect(line.err.message).toBe(
      'Failed query: insert into "users" ("email", "mobile") values ($1, $2)\nparams: [redacted]',
    );
    expect(line.err.cause).toMatchObject({ code: '23505', constraint: 'users_email_unique' });
    expect(line.err.cause.detail).toBeUndefined();
  });

  it('hides the value PostgreSQL quotes in a data error message', () => {
    const sink = captureLines();
    const log = createLogger({ LOG_LEVEL: 'info', NODE_ENV: 'production' }, sink.stream);
    const dataError = Object.assign(new Error('invalid input syntax for type integer: "12 Secret Street"'), {
      code: '22P02',
    });
    log.error({ err: dataError }, 'unhandled error');
    expect(firstLine(sink.lines).err.message).toBe('invalid input syntax for type integer: "[redacted]"');
  });

  it('masks an address typed into a logged URL', () => {
    const sink = captureLines();
    const log = createLogger({ LOG_LEVEL: 'info', NODE_ENV: 'production' }, sink.stream);
    log.info(
      {
        req: {
          method: 'GET',
          url: '/en/sign-in?email=dave%40example.com',
          ip: '127.0.0.1',
          headers: { cookie: 'x=1' },
        },
      },
      'incoming',
    );
    expect(firstLine(sink.lines).req).toEqual({
      method: 'GET',
      url: '/en/sign-in?email=d***%40example.com',
      remoteAddress: '127.0.0.1',
    });
  });
});

describe('a page that fails to render', () => {
  let server: TestServer;
  const sink = captureLines();
  const original = services.content;

  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: 'info', PAGE_CACHE_TTL_SECONDS: '0' }, { logTo: sink.stream });
  });
  afterAll(async () => {
    services.content = original;
    await server?.close();
  });

  it('is logged as one JSON line, with the query values left out', async () => {
    // A bug in a loader: a query PostgreSQL refuses, carrying a buyer's address as a value.
    services.content = {
      ...original,
      getContentPage: async (ctx) => {
        await ctx.db.execute(sql`select ${'erin.private@example.com'}::int as broken`);
        return null;
      },
    };
    const response = await server.request('/en/faq');
    expect(response.status).toBe(500);
    await new Promise((resolve) => setTimeout(resolve, 50));

    const records = sink.lines.map(
      (line) => JSON.parse(line) as { msg?: string; path?: string; err?: { message?: string } },
    );
    const failure = records.find((record) => record.msg === 'page render failed');
    expect(failure).toMatchObject({ path: '/en/faq' });
    expect(failure!.err!.message).toContain('select $1::int as broken');
    expect(sink.text()).not.toContain('erin.private');
  });
});

describe('the line per request', () => {
  let server: TestServer;
  const sink = captureLines();

  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: 'info' }, { logTo: sink.stream });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('holds the method, the masked path, the status and the time, never a header or a credential', async () => {
    const response = await server.request('/v1/visitor?email=frank%40example.com', {
      headers: {
        cookie: 'access_token=cookie-secret-1; csrf_token=csrf-secret-2',
        token: 'header-secret-3',
        sign: 'sign-secret-4',
        authorization: 'Bearer bearer-secret-5',
      },
    });
    expect(response.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));

    const records = sink.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const line = records.find(
      (record) =>
        record.msg === 'request completed' && String((record.req as { url?: string })?.url).startsWith('/v1/visitor'),
    );
    expect(line).toMatchObject({
      level: 30,
      service: 'shop',
      reqId: expect.any(String),
      req: { method: 'GET', url: '/v1/visitor?email=f***%40example.com', remoteAddress: '127.0.0.1' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
    expect(Object.keys(line!.req as object).sort()).toEqual(['method', 'remoteAddress', 'remotePort', 'url']);
    expect(sink.text()).not.toMatch(/(cookie|csrf|header|sign|bearer)-secret-\d|frank@|frank%40/);
  });

  it('is not written when the log level is above info', async () => {
    const quiet = captureLines();
    const warnOnly = await startTestServer({ LOG_LEVEL: 'warn' }, { logTo: quiet.stream });
    try {
      expect((await warnOnly.request('/v1/visitor')).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(quiet.lines.filter((line) => line.includes('request completed'))).toEqual([]);
    } finally {
      await warnOnly.close();
    }
  });
});
