import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryStore } from '../shared/kv-store';
import type { AppContext } from '../context';
import { registerErrorHandling } from './error-handler';
import { registerRequestContext } from './request-context';
import { zodValidatorCompiler } from './validation';

/**
 * The validation and error mapping of every endpoint, driven over real HTTP through a
 * small app wired exactly like the shop's (validator compiler, context, error table).
 */
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  app = Fastify({ logger: false });
  app.setValidatorCompiler(zodValidatorCompiler);
  await app.register(cookie);
  registerRequestContext(app, { log: pino({ level: 'silent' }), kv: createMemoryStore() } as unknown as AppContext);
  registerErrorHandling(app, { bodyLimit: 1024 * 1024 });
  app.post(
    '/v1/probe',
    {
      schema: {
        body: z.object({
          email: z.email(),
          username: z.string().min(3).max(12),
          page: z.number().int().min(1),
          sex: z.union([z.literal(1), z.literal(2)]).optional(),
          kind: z.enum(['a', 'b']).optional(),
        }),
      },
    },
    async () => ({ code: 200 }),
  );
  app.get('/v1/probe/:id', { schema: { params: z.object({ id: z.coerce.number().int().positive() }) } }, async () => ({
    code: 200,
  }));
  app.get('/v1/boom', async () => {
    throw new Error('secret internals at /srv/app.ts:42');
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => app.close());

async function post(body: unknown, lang = 'en') {
  const response = await fetch(`${base}/v1/probe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', lang },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const valid = { email: 'a@b.co', username: 'alice', page: 1 };

describe('validation messages name the field, in the request language', () => {
  it.each([
    [{ ...valid, email: undefined }, 'Email is required', '邮箱不能为空'],
    [{ ...valid, email: 'nope' }, 'Please enter a valid email address', '请输入有效的邮箱地址'],
    [{ ...valid, username: 'al' }, 'Username must be at least 3 characters', '用户名至少需要 3 个字符'],
    [
      { ...valid, username: 'a'.repeat(13) },
      'Username cannot be longer than 12 characters',
      '用户名不能超过 12 个字符',
    ],
    [{ ...valid, page: 'two' }, 'Page must be a number', '页码必须是数字'],
    [{ ...valid, page: 1.5 }, 'Page must be a whole number', '页码必须是整数'],
    [{ ...valid, page: 0 }, 'Page must be at least 1', '页码不能小于 1'],
    [{ ...valid, kind: 'c' }, 'Kind must be one of a, b', '类型必须是 a, b 之一'],
  ])('%j', async (body, english, chinese) => {
    const en = await post(body, 'en');
    expect(en.status).toBe(400);
    expect(en.body).toEqual({ code: 400, msg: english, data: null });
    expect((await post(body, 'zh-cn')).body.msg).toBe(chinese);
  });

  it('treats a missing body as a required body', async () => {
    const response = await fetch(`${base}/v1/probe`, { method: 'POST', headers: { lang: 'en' } });
    expect(response.status).toBe(400);
    expect((await response.json()).msg).toBe('Request body is required');
  });

  it('validates path parameters', async () => {
    const response = await fetch(`${base}/v1/probe/abc`, { headers: { lang: 'en' } });
    expect(response.status).toBe(400);
    expect((await response.json()).msg).toBe('ID must be a number');
  });

  it('accepts a valid body', async () => {
    expect((await post(valid)).status).toBe(200);
  });
});

describe('unexpected errors', () => {
  it('answer a bare localized 500 without internals', async () => {
    const response = await fetch(`${base}/v1/boom`, { headers: { lang: 'en' } });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ code: 500, msg: 'Internal Server Error', data: null });
    expect(text).not.toMatch(/secret|srv|stack|\.ts/);
  });
});
