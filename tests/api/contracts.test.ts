import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressInput } from '../../server/domains/addresses/addresses.schemas';
import { describeIssue } from '../../server/shared/issue-messages';
import { makeBuyer, usAddress, type Buyer } from '../support/buyers';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * One declaration per contract (issue 12): the zod schema in a domain's `*.schemas.ts` is the
 * API's validation, its OpenAPI document and the storefront form's message. The expected values
 * below are written out by hand, so changing a rule in the schema fails this test in all three
 * places at once.
 */

interface JsonSchema {
  type?: string;
  maxLength?: number;
  properties?: Record<string, JsonSchema & { enum?: unknown[] }>;
}
interface Operation {
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
}
type OpenApiDocument = { paths: Record<string, Record<string, Operation>> };

let server: TestServer;
let buyer: Buyer;
let openapi: OpenApiDocument;

beforeAll(async () => {
  server = await startTestServer();
  buyer = await makeBuyer(server);
  openapi = (await server.request<OpenApiDocument>('/v1/openapi.json')).body;
});
afterAll(() => server?.close());

const tooLongName = { ...usAddress, contact_name: 'N'.repeat(61) };
const longestName = { ...usAddress, contact_name: 'N'.repeat(60) };

function operationOf(path: string, method: string): Operation {
  const operation = openapi.paths[path]?.[method];
  if (!operation) throw new Error(`the OpenAPI document has no ${method} ${path}`);
  return operation;
}

function bodySchema(path: string, method: string): JsonSchema {
  const body = operationOf(path, method).requestBody?.content['application/json'];
  if (!body) throw new Error(`${method} ${path} documents no JSON request body`);
  return body.schema;
}

/** The envelope codes an operation documents for one HTTP status. */
function documentedCodes(path: string, method: string, status: number): unknown[] | undefined {
  return operationOf(path, method).responses[status]?.content?.['application/json']!.schema.properties?.code?.enum;
}

describe("the address contact name's length, declared once in addresses.schemas.ts", () => {
  it('is the maxLength of the OpenAPI document, for adding and for changing an address', () => {
    expect(bodySchema('/v1/useraddress', 'post').properties!.contact_name?.maxLength).toBe(60);
    expect(bodySchema('/v1/useraddress', 'put').properties!.contact_name?.maxLength).toBe(60);
  });

  it("is the API's 400 answer, naming the field and the limit in the request's language", async () => {
    const en = await buyer.call('/v1/useraddress', { method: 'POST', body: tooLongName, headers: { lang: 'en' } });
    expect(en.status).toBe(400);
    expect(en.body).toEqual({ code: 400, msg: 'Contact person cannot be longer than 60 characters', data: null });
    const zh = await buyer.call('/v1/useraddress', { method: 'POST', body: tooLongName, headers: { lang: 'zh-cn' } });
    expect(zh.status).toBe(400);
    expect(zh.body).toEqual({ code: 400, msg: '联系人不能超过 60 个字符', data: null });

    const longest = await buyer.call('/v1/useraddress', { method: 'POST', body: longestName, headers: { lang: 'en' } });
    expect(longest.status).toBe(200);
    expect(longest.body.data.contact_name).toBe('N'.repeat(60));
  });

  it("is the storefront form's message, from the same schema and the same message function", () => {
    const refused = addressInput.safeParse(tooLongName);
    expect(refused.success).toBe(false);
    const issue = refused.error!.issues[0];
    if (!issue) throw new Error('the too-long name was refused without an issue');
    expect(describeIssue('en', issue, 'body')).toBe('Contact person cannot be longer than 60 characters');
    expect(describeIssue('zh-cn', issue, 'body')).toBe('联系人不能超过 60 个字符');
    expect(addressInput.safeParse(longestName).success).toBe(true);
  });
});

describe('error answers in the OpenAPI document', () => {
  it('documents the envelope of each failure a route can answer, with its codes', () => {
    // Adding an address: invalid fields, no session (301) or an expired one (302), CSRF, body limits.
    expect(documentedCodes('/v1/useraddress', 'post', 400)).toEqual([400]);
    expect(documentedCodes('/v1/useraddress', 'post', 401)).toEqual([301, 302]);
    expect(documentedCodes('/v1/useraddress', 'post', 403)).toEqual([403]);
    expect(documentedCodes('/v1/useraddress', 'post', 413)).toEqual([413]);
    expect(documentedCodes('/v1/useraddress', 'post', 415)).toEqual([415]);
    expect(documentedCodes('/v1/useraddress', 'post', 409)).toBeUndefined();
    // Registering: a wrong captcha has a code of its own; a taken email or name is a conflict.
    expect(documentedCodes('/v1/user/registe', 'post', 400)).toEqual([400, 4001]);
    expect(documentedCodes('/v1/user/registe', 'post', 409)).toEqual([409]);
    expect(documentedCodes('/v1/user/registe', 'post', 429)).toEqual([429]);
    expect(documentedCodes('/v1/user/registe', 'post', 401)).toBeUndefined();
    // Placing an order: out of stock is a conflict; an unknown address or SKU is not found.
    expect(documentedCodes('/v2/order', 'post', 409)).toEqual([409]);
    expect(documentedCodes('/v2/order', 'post', 404)).toEqual([404]);
    // Reading a product needs no session.
    expect(documentedCodes('/v1/good/{id}', 'get', 404)).toEqual([404]);
    expect(documentedCodes('/v1/good/{id}', 'get', 401)).toBeUndefined();
    expect(operationOf('/v1/good/{id}', 'get').responses['404']?.description).toBe('No such resource (or not yours)');
  });

  it('documents a server fault and an unavailable database on every API operation', () => {
    const apiPaths = Object.entries(openapi.paths).filter(([path]) => /^\/v[12]\//.test(path));
    expect(apiPaths.length).toBeGreaterThan(30);
    for (const [path, methods] of apiPaths) {
      for (const [method, operation] of Object.entries(methods)) {
        expect(operation.responses['500'], `${method} ${path}`).toBeDefined();
        expect(operation.responses['503'], `${method} ${path}`).toBeDefined();
      }
    }
  });

  it('answers failures in the documented envelope', async () => {
    const anonymous = await server.request('/v1/useraddress/list', { headers: { lang: 'en' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ code: 301, msg: expect.any(String), data: null });
    expect(documentedCodes('/v1/useraddress/list', 'get', 401)).toContain(301);

    const missing = await server.request('/v1/good/2147483647', { headers: { lang: 'en' } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 404, msg: expect.any(String), data: null });
  });
});
