import { afterEach, describe, expect, it } from 'vitest';
import { MockPlatformError, startMockPlatform, type MockPlatform, type MockPlatformOptions } from '../src/index';
import { TABLE_FIXTURE, postSession } from './fixture';

let platform: MockPlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
});
const start = async (options: MockPlatformOptions = TABLE_FIXTURE) => (platform = await startMockPlatform(options));
const post = (p: MockPlatform, body: unknown, apiKey: string | null = 'test-key-0123456789', headers?: Record<string, string>) =>
  postSession(p.origin, JSON.stringify(body), apiKey, headers);
const ext = { deploymentId: 1, externalId: 'jane@example.com' };

describe('authentication and scope', () => {
  it.each([
    ['no header', null, {}],
    ['Bearer instead of Api-Key', null, { authorization: 'Bearer test-key-0123456789' }],
    ['Api-Key without a key', null, { authorization: 'Api-Key ' }],
    ['unknown key', 'other-key', {}],
  ] as const)('401 for %s, before the body is read', async (_name, key, headers) => {
    const p = await start();
    const r = await post(p, 'not even a request', key, headers);
    expect(r.status).toBe(401);
    expect(r.body.message).toMatch(/Api-Key|Unknown API key/);
  });

  it('403 outside the key scope, 200 inside it; the default key is mock-platform-api-key', async () => {
    const p = await start();
    expect((await post(p, { ...ext, deploymentId: 2 }, 'scoped-key-0123456789')).status).toBe(403);
    expect((await post(p, ext, 'scoped-key-0123456789')).status).toBe(200);
    const d = await startMockPlatform();
    try {
      expect(d.apiKey).toBe('mock-platform-api-key');
      expect((await post(d, ext, 'mock-platform-api-key')).status).toBe(200);
    } finally {
      await d.close();
    }
  });

  it('404 for a deployment that does not exist; 415 without a JSON content type; 400 for broken JSON', async () => {
    const p = await start();
    expect(await post(p, { ...ext, deploymentId: 3 })).toMatchObject({ status: 404, body: { message: 'Deployment 3 not found' } });
    expect((await post(p, ext, 'test-key-0123456789', { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await postSession(p.origin, '{"deploymentId":1,', 'test-key-0123456789')).status).toBe(400);
  });

  it('mintSession throws the status and message generate-session would answer', async () => {
    const p = await start();
    const error = await p.mintSession({ ...ext, groups: ['nope'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MockPlatformError);
    expect(error).toMatchObject({ status: 400, message: expect.stringContaining('Groups with names nope not found') });
    await expect(p.mintSession(ext, 'scoped-key-0123456789')).resolves.toMatch(/^[\w-]{20,}$/);
  });
});

describe('external users: identity, profile, attributes, groups', () => {
  it('stores externalId trimmed and lowercased: the same person is one user', async () => {
    const p = await start();
    await p.mintSession({ deploymentId: 1, externalId: '  Jane@Example.COM ', email: 'jane@example.com' });
    await p.mintSession({ deploymentId: 2, externalId: 'jane@example.com' });
    expect(p.externalUserCount).toBe(1);
    expect(p.externalUser('JANE@example.com')).toMatchObject({ externalId: 'jane@example.com', email: 'jane@example.com' });
    expect(p.sessions().map((s) => s.user)).toEqual([
      { kind: 'external', externalId: 'jane@example.com' },
      { kind: 'external', externalId: 'jane@example.com' },
    ]);
  });

  it('userProfile overwrites what is sent and keeps what is omitted (rule 2)', async () => {
    const p = await start();
    await p.mintSession({ ...ext, userProfile: { displayName: 'Jane', picture: 'https://cdn.example.com/j.png' } });
    expect(p.externalUser('jane@example.com')!.userProfile).toEqual({ displayName: 'Jane', picture: 'https://cdn.example.com/j.png' });
    await p.mintSession({ ...ext, userProfile: { displayName: 'Jane D.' } });
    expect(p.externalUser('jane@example.com')!.userProfile).toEqual({ displayName: 'Jane D.', picture: 'https://cdn.example.com/j.png' });
    await p.mintSession(ext);
    expect(p.externalUser('jane@example.com')!.userProfile).toEqual({ displayName: 'Jane D.', picture: 'https://cdn.example.com/j.png' });
  });

  it('attribute values are stored per user, overwritten per name, cleared by null (rule 3)', async () => {
    const p = await start();
    await p.mintSession({
      ...ext,
      userAttributes: [
        { name: 'region', value: 'emea' },
        { name: 'level', value: 2 },
      ],
    });
    await p.mintSession({ deploymentId: 1, externalId: 'bob', userAttributes: [{ name: 'region', value: 'apac' }] });
    await p.mintSession({
      ...ext,
      userAttributes: [
        { name: 'level', value: 5 },
        { name: 'tags', value: ['a'] },
      ],
    });
    expect(p.externalUser('jane@example.com')!.attributes).toEqual({ '': { region: 'emea', level: 5, tags: ['a'] } });
    await p.mintSession({ ...ext, userAttributes: [{ name: 'region', value: null }] });
    expect(p.externalUser('jane@example.com')!.attributes).toEqual({ '': { level: 5, tags: ['a'] } });
    expect(p.externalUser('bob')!.attributes).toEqual({ '': { region: 'apac' } });
  });

  it('a value of the wrong type is refused and stores nothing', async () => {
    const p = await start();
    const r = await post(p, { ...ext, userAttributes: [{ name: 'level', value: 'high' }], groups: ['sales'] });
    expect(r).toMatchObject({ status: 400, body: { message: expect.stringContaining('level') } });
    expect(p.externalUserCount).toBe(0);
  });

  it('groups: omitted keeps, a list replaces, [] clears (rule 5)', async () => {
    const p = await start();
    await p.mintSession({ ...ext, groups: ['sales', 'support'] });
    await p.mintSession(ext);
    expect(p.externalUser('jane@example.com')!.groups).toEqual({ '': ['sales', 'support'] });
    await p.mintSession({ ...ext, groups: ['support'] });
    expect(p.externalUser('jane@example.com')!.groups).toEqual({ '': ['support'] });
    await p.mintSession({ ...ext, groups: [] });
    expect(p.externalUser('jane@example.com')!.groups).toEqual({});
  });

  it('names every unresolved group, and stores nothing', async () => {
    const p = await start();
    const r = await post(p, { ...ext, groups: ['sales', 'ops', 'hr'] });
    expect(r).toMatchObject({ status: 400, body: { message: 'Groups with names ops, hr not found' } });
    expect(p.externalUserCount).toBe(0);
  });

  it('internalId needs an existing internal user; its session names it', async () => {
    const p = await start();
    await p.mintSession({ deploymentId: 1, internalId: 'alice' });
    expect(p.sessions()[0]!.user).toEqual({ kind: 'internal', internalId: 'alice' });
    expect(p.externalUserCount).toBe(0);
    await expect(p.mintSession({ deploymentId: 1, internalId: 'bob' })).rejects.toMatchObject({ status: 400 });
  });

  it('the external user limit refuses new users only (403), counting from the configured maximum', async () => {
    const p = await start({ ...TABLE_FIXTURE, maxExternalUsers: 2 });
    await p.mintSession({ deploymentId: 1, externalId: 'a' });
    await p.mintSession({ deploymentId: 1, externalId: 'b' });
    const r = await post(p, { deploymentId: 1, externalId: 'c' });
    expect(r).toMatchObject({ status: 403, body: { message: expect.stringContaining('External user limit') } });
    await expect(p.mintSession({ deploymentId: 1, externalId: ' A ' })).resolves.toEqual(expect.any(String));
    expect(p.externalUserCount).toBe(2);
    p.reset();
    await expect(p.mintSession({ deploymentId: 1, externalId: 'c' })).resolves.toEqual(expect.any(String));
  });

  it('the default limit is 10,000 external users', async () => {
    const p = await start();
    for (let i = 0; i < 10_000; i++) p.generateSession({ deploymentId: 1, externalId: `u${i}` });
    expect(p.externalUserCount).toBe(10_000);
    expect(p.generateSession({ deploymentId: 1, externalId: 'one-more' }).status).toBe(403);
    expect(p.generateSession({ deploymentId: 1, externalId: 'u42' }).status).toBe(200);
  });
});

describe('creator mode and embed-tenant scopes', () => {
  const creator = { ...ext, creatorMode: true, embedTenantName: 'acme-corp' };

  it('needs the useCreatorMode tenant flag', async () => {
    const p = await start({ ...TABLE_FIXTURE, useCreatorMode: false });
    expect((await post(p, creator)).status).toBe(403);
    expect((await post(p, ext)).status).toBe(200);
  });

  it('definitions land only in the embed tenant scope, and are idempotent', async () => {
    const p = await start();
    const request = {
      ...creator,
      userAttributeDefinitions: [{ name: 'team', type: 'string' as const, description: 'Team' }],
      groupDefinitions: [{ name: 'ops', description: 'Operations' }],
    };
    await p.mintSession(request);
    await p.mintSession(request);
    expect(p.catalog('acme-corp')).toEqual({
      userAttributes: [
        { name: 'department', type: 'string' },
        { name: 'team', type: 'string', description: 'Team' },
      ],
      groups: [{ name: 'analysts' }, { name: 'ops', description: 'Operations' }],
    });
    expect(p.catalog(null)!.userAttributes.map((a) => a.name)).toEqual(['region', 'level', 'tags']);
    expect(p.catalog(null)!.groups.map((g) => g.name)).toEqual(['sales', 'support']);
  });

  it('descriptions are updated when supplied and never cleared', async () => {
    const p = await start();
    await p.mintSession({ ...creator, groupDefinitions: [{ name: 'analysts', description: 'Number people' }] });
    await p.mintSession({
      ...creator,
      groupDefinitions: [{ name: 'analysts' }],
      userAttributeDefinitions: [{ name: 'department', type: 'string' as const, displayName: 'Dept' }],
    });
    expect(p.catalog('acme-corp')).toEqual({
      userAttributes: [{ name: 'department', type: 'string', displayName: 'Dept' }],
      groups: [{ name: 'analysts', description: 'Number people' }],
    });
  });

  it('a type change fails with "cannot change type" and upserts nothing of the request', async () => {
    const p = await start();
    const r = await post(p, {
      ...creator,
      groupDefinitions: [{ name: 'ops' }],
      userAttributeDefinitions: [
        { name: 'team', type: 'string' },
        { name: 'department', type: 'number' },
      ],
      userAttributes: [{ name: 'team', value: 'blue' }],
    });
    expect(r).toMatchObject({ status: 400, body: { message: expect.stringContaining('cannot change type') } });
    expect(p.catalog('acme-corp')).toEqual({ userAttributes: [{ name: 'department', type: 'string' }], groups: [{ name: 'analysts' }] });
    expect(p.externalUserCount).toBe(0);
  });

  it('values and memberships resolve in the scope of the session: another embed tenant does not see them', async () => {
    const p = await start();
    await p.mintSession({ ...creator, userAttributes: [{ name: 'department', value: 'finance' }], groups: ['analysts'] });
    expect(p.externalUser('jane@example.com')).toMatchObject({
      embedTenant: 'acme-corp',
      attributes: { 'acme-corp': { department: 'finance' } },
      groups: { 'acme-corp': ['analysts'] },
    });
    const other = await post(p, { ...creator, embedTenantName: 'globex-inc', userAttributes: [{ name: 'department', value: 'x' }] });
    expect(other).toMatchObject({ status: 400, body: { message: expect.stringContaining('User attributes not found') } });
    // A new embed tenant is created on first (successful) use, empty.
    await p.mintSession({ ...creator, embedTenantName: 'globex-inc' });
    expect(p.catalog('globex-inc')).toEqual({ userAttributes: [], groups: [] });
    expect(p.sessions().at(-1)).toMatchObject({ embedTenant: 'globex-inc', creatorMode: true });
  });

  it('reset() forgets definitions, users and sessions', async () => {
    const p = await start();
    await p.mintSession({ ...creator, groupDefinitions: [{ name: 'ops' }] });
    p.reset();
    expect(p.catalog('acme-corp')!.groups).toEqual([{ name: 'analysts' }]);
    expect(p.externalUserCount).toBe(0);
    expect(p.sessions()).toEqual([]);
  });
});

describe('options', () => {
  it('refuses unusable options with a message saying what to pass', async () => {
    await expect(startMockPlatform({ allowedOrigins: ['*'] })).rejects.toThrow(/allowedOrigins: "\*" is not an origin/);
    await expect(startMockPlatform({ apiKeys: ['has space'] })).rejects.toThrow(/apiKeys/);
    // The server client refuses keys shorter than 16 characters; the mock does not hand one out.
    await expect(startMockPlatform({ apiKeys: ['short-key'] })).rejects.toThrow(/apiKeys: "short-key" is too short: .*at least 16/);
  });

  it('listens on localhost on a free port by default, and on the port asked for', async () => {
    const p = await start({});
    expect(p.origin).toMatch(/^http:\/\/localhost:\d+$/);
    const port = Number(new URL(p.origin).port);
    await p.close();
    platform = await startMockPlatform({ port, host: '127.0.0.1' });
    expect(platform.origin).toBe(`http://127.0.0.1:${port}`);
  });
});

describe('throttle: a platform under load', () => {
  it('answers 429 with Retry-After before looking at the key or the body, counts the refusals, and ends', async () => {
    const p = await start();
    p.throttle({ retryAfter: 30, times: 2 });
    const res = await fetch(p.url('/api/v1/embed/generate-session'), { method: 'POST', body: 'not JSON' });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('30');
    await expect(res.json()).resolves.toEqual({ message: expect.stringMatching(/too many requests/i) });
    expect((await post(p, ext)).status).toBe(429);
    expect((await post(p, ext)).status).toBe(200);
    expect(p.throttledCount).toBe(2);
    expect(p.sessions()).toHaveLength(1);
  });

  it('503, an HTTP date or no Retry-After; throttle(false) and reset() end it', async () => {
    const p = await start();
    p.throttle({ status: 503, retryAfter: 'Tue, 24 Nov 2026 12:00:00 GMT' });
    const dated = await postSession(p.origin, JSON.stringify(ext), 'test-key-0123456789');
    expect(dated.status).toBe(503);
    p.throttle({ retryAfter: null });
    const res = await fetch(p.url('/api/v1/embed/generate-session'), { method: 'POST', body: '{}' });
    expect(res.status).toBe(429);
    expect(res.headers.has('retry-after')).toBe(false);
    p.throttle(false);
    expect((await post(p, ext)).status).toBe(200);
    p.throttle({});
    expect((await post(p, ext)).status).toBe(429);
    p.reset();
    expect(p.throttledCount).toBe(0);
    expect((await post(p, ext)).status).toBe(200);
    p.throttle({ times: 0 });
    expect((await post(p, ext)).status).toBe(200);
  });
});

describe('throttle: a value it cannot use is refused, naming it', () => {
  // (Was: throttle(null) threw "Cannot read properties of null"; status 200 answered 200 without a
  // session id, with "Service unavailable" as its message; times 1.5 refused two calls.)
  it.each<[string, unknown, RegExp]>([
    ['null', null, /throttle: pass false to end it, or \{ status, retryAfter, times \}/],
    ['undefined', undefined, /throttle: pass false to end it/],
    ['status 200', { status: 200 }, /throttle: status must be 429 or 503 \(got 200\)/],
    ['status "429"', { status: '429' }, /throttle: status must be 429 or 503 \(got "429"\)/],
    ['times 1.5', { times: 1.5 }, /throttle: times must be a whole number of calls \(got 1.5\)/],
    ['retryAfter an object', { retryAfter: {} }, /throttle: retryAfter must be a number of seconds, a string or null/],
  ])('%s: a MockPlatformError (invalid-option), and the throttle in force stays', async (_, value, message) => {
    const p = await start();
    p.throttle({ times: 1 });
    expect(() => p.throttle(value as never)).toThrow(message);
    expect(() => p.throttle(value as never)).toThrow(expect.objectContaining({ code: 'invalid-option' }) as never);
    expect((await post(p, ext)).status).toBe(429);
    expect((await post(p, ext)).status).toBe(200);
  });
});
