import { describe, expectTypeOf, test } from 'vitest';
import {
  createSessionClient,
  createSessionHandler,
  toNodeHandler,
  type GenerateSessionRequest,
  type PlatformApiError,
  type PlatformApiErrorCode,
  type SessionRequestValidation,
  type SessionHandlerOptions,
  type SessionRouteError,
  type SessionUser,
  SessionRouteErrors,
} from '@platform-embed/server';
import type { IncomingMessage, ServerResponse } from 'node:http';

describe('request types', () => {
  test('exactly one of externalId / internalId, nothing user-changing with internalId', () => {
    expectTypeOf<{ deploymentId: 1; externalId: 'a'; groups: ['x'] }>().toExtend<GenerateSessionRequest>();
    expectTypeOf<{ deploymentId: 1; internalId: 'alice'; settings: { showDashboardChat: false } }>().toExtend<GenerateSessionRequest>();
    // @ts-expect-error groups are not allowed with internalId
    const a: GenerateSessionRequest = { deploymentId: 1, internalId: 'alice', groups: ['x'] };
    // @ts-expect-error not both ids
    const b: GenerateSessionRequest = { deploymentId: 1, internalId: 'alice', externalId: 'a' };
    // @ts-expect-error deploymentId is required
    const c: GenerateSessionRequest = { externalId: 'a' };
    // @ts-expect-error attribute values are not booleans
    const d: GenerateSessionRequest = { deploymentId: 1, externalId: 'a', userAttributes: [{ name: 'r', value: true }] };
    // @ts-expect-error definition type outside the allowed set
    const e: GenerateSessionRequest = { deploymentId: 1, externalId: 'a', userAttributeDefinitions: [{ name: 'r', type: 'boolean' }] };
    void [a, b, c, d, e];
  });

  test('validation result narrows', () => {
    const r = {} as SessionRequestValidation;
    if (r.ok) expectTypeOf(r.request).toEqualTypeOf<GenerateSessionRequest>();
    else expectTypeOf(r).toEqualTypeOf<{ ok: false; field: string; rule: string; message: string }>();
  });

  test('error codes are a closed union', () => {
    expectTypeOf<PlatformApiError['code']>().toEqualTypeOf<PlatformApiErrorCode>();
    expectTypeOf<'timeout'>().toExtend<PlatformApiErrorCode>();
    expectTypeOf<'nope'>().not.toExtend<PlatformApiErrorCode>();
  });
});

describe('client and handlers', () => {
  test('generateSession resolves to { sessionId }', () => {
    const client = createSessionClient({ baseUrl: 'https://x.example', apiKey: 'k-0123456789abcdef' });
    expectTypeOf(client.generateSession).returns.resolves.toEqualTypeOf<{ sessionId: string }>();
  });

  test('resolveUser may leave deploymentId to the option', () => {
    expectTypeOf<{ externalId: 'u' }>().toExtend<SessionUser>();
    // @ts-expect-error still no groups with internalId
    const u: SessionUser = { internalId: 'a', groups: [] };
    void u;
    expectTypeOf(createSessionHandler).returns.toEqualTypeOf<(request: Request) => Promise<Response>>();
  });

  test("toNodeHandler fits Node's http types", () => {
    type NodeHandler = ReturnType<typeof toNodeHandler>;
    expectTypeOf<IncomingMessage>().toExtend<Parameters<NodeHandler>[0]>();
    expectTypeOf<ServerResponse>().toExtend<Parameters<NodeHandler>[1]>();
  });
});

describe('rate limits and the route answers (issue 18)', () => {
  test('retryAfter is seconds or undefined; the new codes are codes', () => {
    expectTypeOf<PlatformApiError['retryAfter']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<'rate-limited'>().toExtend<PlatformApiErrorCode>();
    expectTypeOf<'unavailable'>().toExtend<PlatformApiErrorCode>();
  });

  test("the route's error codes are a closed union, each with its status and message", () => {
    expectTypeOf<'rate-limited' | 'cross-site' | 'method-not-allowed'>().toExtend<SessionRouteError>();
    // @ts-expect-error not a code of the route
    const unknown: SessionRouteError = 'bad-gateway';
    void unknown;
    expectTypeOf(SessionRouteErrors['rate-limited'].status).toEqualTypeOf<429>();
  });

  test('the new options', () => {
    expectTypeOf(createSessionHandler).toBeCallableWith({
      client: { baseUrl: 'https://x.example', apiKey: 'k', maxResponseBytes: 1024 },
      resolveUser: () => null,
      methods: ['POST'],
      allowedOrigins: ['https://admin.example'],
      maxBodyBytes: 4096,
    });
    const refused: SessionHandlerOptions = {
      client: { baseUrl: 'https://x.example', apiKey: 'k' },
      resolveUser: () => null,
      // @ts-expect-error allowedOrigins is a list
      allowedOrigins: 'https://a.example',
    };
    void refused;
  });
});

describe('real servers (issue 23)', () => {
  test('trustProxy and bodyTimeoutMs; the 408 answer', () => {
    expectTypeOf(createSessionHandler).toBeCallableWith({
      client: { baseUrl: 'https://x.example', apiKey: 'k' },
      resolveUser: () => null,
      trustProxy: true,
      bodyTimeoutMs: 5000,
    });
    expectTypeOf(toNodeHandler).toBeCallableWith(async () => new Response(), { maxBodyBytes: 1024, bodyTimeoutMs: 5000 });
    expectTypeOf(SessionRouteErrors['request-timeout'].status).toEqualTypeOf<408>();
    const refused: SessionHandlerOptions = {
      client: { baseUrl: 'https://x.example', apiKey: 'k' },
      resolveUser: () => null,
      // @ts-expect-error trustProxy is true or false, not a list of proxies
      trustProxy: ['10.0.0.1'],
    };
    void refused;
  });
});
