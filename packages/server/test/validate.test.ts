import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createSessionClient, validateSessionRequest } from '@platform-embed/server';
import { sessionRequestCases } from './sessionRequests.table';

describe('the request table against client validation', () => {
  test.each(sessionRequestCases.map((c) => [c.name, c] as const))('%s', (_, c) => {
    const result = validateSessionRequest(c.request);
    if (c.client.ok) {
      expect(result, JSON.stringify(result)).toMatchObject({ ok: true });
    } else {
      expect(result).toMatchObject({ ok: false, field: c.client.field });
      if (!result.ok) {
        expect(result.rule).toMatch(/^[a-z][a-zA-Z-]*[a-zA-Z]$/);
        // The message names the field to fix.
        const top = c.client.field == '(request)' ? 'request' : c.client.field.split(/[.[]/)[0]!;
        expect(result.message).toContain(top);
      }
    }
  });

  test('the table is consistent and covers every documented rule', () => {
    const names = sessionRequestCases.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const c of sessionRequestCases) if (!c.client.ok) expect(c.platform.status, c.name).toBe(400);
    const rules = new Set(sessionRequestCases.map((c) => c.rule));
    for (let n = 1; n <= 10; n++) expect(rules, `rule ${n}`).toContain(`rule ${n}`);
    // Cases only the platform can reject are there, with client ok.
    const platformOnly = sessionRequestCases.filter((c) => c.client.ok && c.platform.status !== 200).map((c) => c.platform.status);
    expect(new Set(platformOnly)).toEqual(new Set([400, 401, 403]));
  });
});

describe('rules and messages', () => {
  const expectFailure = (input: unknown, field: string, rule: string, message: RegExp) => {
    const r = validateSessionRequest(input);
    expect(r).toEqual({ ok: false, field, rule, message: expect.stringMatching(message) });
  };

  test('names the field and the rule', () => {
    expectFailure({ externalId: 'a' }, 'deploymentId', 'required', /deploymentId is required/);
    expectFailure({ deploymentId: 1 }, 'externalId', 'exactly-one', /exactly one of externalId/);
    expectFailure({ deploymentId: 1, internalId: 'alice', groups: [] }, 'groups', 'not-with-internalId', /rule 1/);
    expectFailure(
      { deploymentId: 1, internalId: 'alice', email: 'a@b.c' },
      'email',
      'only-with-externalId',
      /only allowed with externalId/,
    );
    expectFailure({ deploymentId: 1, externalId: 'a', embedTenantName: 'abc' }, 'embedTenantName', 'length', /5 to 36 characters.*got 3/);
    expectFailure({ deploymentId: 1, externalId: 'a', embedTenantName: 'Acme-corp' }, 'embedTenantName', 'pattern', /lowercase/);
    expectFailure(
      { deploymentId: 1, externalId: 'a', userProfile: { picture: 'ftp://x.example/a.png' } },
      'userProfile.picture',
      'absolute-http-url',
      /absolute http:\/\/ or https:\/\//,
    );
    expectFailure(
      {
        deploymentId: 1,
        externalId: 'a',
        userAttributes: [
          { name: 'r', value: 1 },
          { name: 'r', value: 2 },
        ],
      },
      'userAttributes[1].name',
      'duplicate',
      /"r" appears twice/,
    );
    expectFailure(
      { deploymentId: 1, externalId: 'a', groupDefinitions: [] },
      'groupDefinitions',
      'requires-creatorMode',
      /creatorMode: true/,
    );
    expectFailure(
      { deploymentId: 1, externalId: 'a', creatorMode: true, groupDefinitions: [] },
      'groupDefinitions',
      'requires-embedTenantName',
      /embedTenantName/,
    );
    expectFailure(
      {
        deploymentId: 1,
        externalId: 'a',
        creatorMode: true,
        embedTenantName: 'acme-corp',
        userAttributeDefinitions: [{ name: 'x', type: 'boolean' }],
      },
      'userAttributeDefinitions[0].type',
      'allowed-values',
      /string, number, string_array, number_array/,
    );
    expectFailure({ deploymentId: 1, externalId: 'a', ephemeralTtlSeconds: 5 }, 'ephemeralTtlSeconds', 'removed', /0\.2\.0/);
    expectFailure({ deploymentId: 1, externalId: 'a', groupz: [] }, 'groupz', 'unknown-field', /known fields: .*groups/);
    expectFailure(
      { deploymentId: 1, externalId: 'a', userProfile: { pictureUrl: 'https://x' } },
      'userProfile.pictureUrl',
      'unknown-field',
      /allowed: displayName, picture/,
    );
  });

  test('externalId is trimmed and lowercased in a copy; the input is untouched', () => {
    const input = {
      deploymentId: 1,
      externalId: '  Jane.DOE@Example.com\n',
      userAttributes: [{ name: 'tags', value: ['A'] }],
      settings: { showDashboardChat: true },
    };
    const before = structuredClone(input);
    const r = validateSessionRequest(input);
    expect(r).toEqual({ ok: true, request: { ...before, externalId: 'jane.doe@example.com' } });
    expect(input).toEqual(before);
    if (!r.ok) return;
    expect(r.request.userAttributes).not.toBe(input.userAttributes);
    expect(r.request.userAttributes?.[0]?.value).not.toBe(input.userAttributes[0]!.value);
    expect(r.request.settings).not.toBe(input.settings);
  });

  test('undefined fields count as absent and are dropped; internalId is kept as given', () => {
    const r = validateSessionRequest({ deploymentId: 2, internalId: 'Alice', externalId: undefined, groups: undefined });
    expect(r).toEqual({ ok: true, request: { deploymentId: 2, internalId: 'Alice' } });
    expect(Object.keys(r.ok ? r.request : {})).toEqual(['deploymentId', 'internalId']);
  });

  test('unknown settings keys pass through (the platform adds settings over time)', () => {
    const r = validateSessionRequest({ deploymentId: 1, externalId: 'a', settings: { futureFlag: 1 } });
    expect(r).toEqual({ ok: true, request: { deploymentId: 1, externalId: 'a', settings: { futureFlag: 1 } } });
  });

  test('securityContext must be JSON', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(validateSessionRequest({ deploymentId: 1, externalId: 'a', securityContext: cyclic })).toMatchObject({
      ok: false,
      field: 'securityContext',
      rule: 'json',
    });
    expect(validateSessionRequest({ deploymentId: 1, externalId: 'a', securityContext: { n: 1n } })).toMatchObject({
      ok: false,
      field: 'securityContext',
    });
  });

  // Found while running the property below 50 times over (its accepted requests are rare: about
  // 2 in 300,000 of its inputs), read in the code: settings passed through as they were.
  test('settings are sent as their JSON: what JSON cannot carry is refused, the rest is what the platform gets', () => {
    expect(validateSessionRequest({ deploymentId: 1, externalId: 'a', settings: { futureFlag: 1n } })).toMatchObject({
      ok: false,
      field: 'settings',
      rule: 'json',
    });
    const r = validateSessionRequest({
      deploymentId: 1,
      externalId: 'a',
      settings: { futureFlag: Number.NaN, nested: { at: -0 }, gone: undefined, showDashboardChat: true },
    });
    expect(r).toEqual({
      ok: true,
      request: { deploymentId: 1, externalId: 'a', settings: { futureFlag: null, nested: { at: 0 }, showDashboardChat: true } },
    });
    if (r.ok) expect(JSON.parse(JSON.stringify(r.request))).toEqual(r.request);
  });

  test('a settings object with a BigInt: generateSession rejects with invalid-request, not a TypeError of JSON.stringify', async () => {
    const client = createSessionClient({
      baseUrl: 'https://acme.platform.example',
      apiKey: 'k-0123456789abcdef',
      fetch: async () => new Response('{}'),
    });
    await expect(client.generateSession({ deploymentId: 1, externalId: 'a', settings: { futureFlag: 1n } } as never)).rejects.toMatchObject(
      {
        name: 'PlatformApiError',
        code: 'invalid-request',
      },
    );
  });

  test('an object whose JSON is not an object (a Date) is refused as securityContext or settings', () => {
    for (const field of ['securityContext', 'settings'])
      expect(validateSessionRequest({ deploymentId: 1, externalId: 'a', [field]: new Date(0) })).toMatchObject({
        ok: false,
        field,
        rule: 'json',
      });
  });

  test('an attribute value -0 is 0, as JSON sends it: the request survives JSON unchanged', () => {
    const r = validateSessionRequest({
      deploymentId: 1,
      externalId: 'a',
      userAttributes: [
        { name: 'n', value: -0 },
        { name: 'l', value: [1, -0] },
      ],
    });
    expect(r.ok && r.request.userAttributes!.map((a) => a.value)).toEqual([0, [1, 0]]);
    if (r.ok) expect(JSON.parse(JSON.stringify(r.request))).toEqual(r.request);
  });

  // Found by the valid-leaning property below: [,] passed as a list of strings (every() skips a
  // hole), and was sent as [null].
  test('an array with a hole is refused, as an attribute value and as a list of the request', () => {
    // (Arrays of length 2 with nothing at index 0.)
    const holed = <T>(second: T) => Object.assign(new Array<T>(2), { 1: second });
    const holes = { value: holed('x'), attributes: holed({ name: 'a', value: 1 }), groups: holed('g') };
    expect(validateSessionRequest({ deploymentId: 1, externalId: 'a', userAttributes: [{ name: 'a', value: holes.value }] })).toMatchObject(
      {
        ok: false,
        field: 'userAttributes[0].value',
        rule: 'type',
      },
    );
    expect(validateSessionRequest({ deploymentId: 1, externalId: 'a', userAttributes: holes.attributes })).toMatchObject({
      ok: false,
      field: 'userAttributes[0]',
    });
    expect(validateSessionRequest({ deploymentId: 1, externalId: 'a', groups: holes.groups })).toMatchObject({
      ok: false,
      field: 'groups[0]',
    });
  });

  test('hostile objects do not make it throw', () => {
    const throwing = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('boom');
        },
      },
    );
    expect(validateSessionRequest(throwing)).toMatchObject({ ok: false, field: '(request)', rule: 'readable' });
    const getter = {
      deploymentId: 1,
      get externalId(): string {
        throw new Error('boom');
      },
    };
    expect(validateSessionRequest(getter)).toMatchObject({ ok: false });
  });

  test('never throws, and whatever it accepts it accepts again unchanged (property)', () => {
    const fields = fc.record(
      {
        deploymentId: fc.oneof(fc.integer({ min: -2, max: 3 }), fc.double(), fc.string()),
        externalId: fc.oneof(fc.string(), fc.integer()),
        internalId: fc.string(),
        email: fc.oneof(fc.emailAddress(), fc.string()),
        embedTenantName: fc.oneof(fc.stringMatching(/^[a-z][a-z0-9-]{3,35}[a-z0-9]$/), fc.string()),
        creatorMode: fc.oneof(fc.boolean(), fc.anything()),
        userProfile: fc.oneof(
          fc.record({ displayName: fc.string(), picture: fc.oneof(fc.webUrl(), fc.string()) }, { requiredKeys: [] }),
          fc.anything(),
        ),
        userAttributes: fc.array(
          fc.record({
            name: fc.constantFrom('a', 'b', 'c'),
            value: fc.oneof(fc.string(), fc.double(), fc.array(fc.string()), fc.constant(null), fc.anything()),
          }),
        ),
        groups: fc.oneof(fc.array(fc.string()), fc.anything()),
        groupDefinitions: fc.array(fc.record({ name: fc.constantFrom('g', 'h'), description: fc.string() }, { requiredKeys: ['name'] })),
        userAttributeDefinitions: fc.array(
          fc.record({
            name: fc.constantFrom('x', 'y'),
            type: fc.constantFrom('string', 'number', 'string_array', 'number_array', 'boolean'),
          }),
        ),
        securityContext: fc.anything(),
        settings: fc.oneof(fc.record({ showDashboardChat: fc.oneof(fc.boolean(), fc.anything()) }, { requiredKeys: [] }), fc.anything()),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(fields, fc.anything()), (input) => {
        const r = validateSessionRequest(input);
        expect(typeof r.ok).toBe('boolean');
        if (!r.ok) {
          expect(r.field && r.rule && r.message).toBeTruthy();
          return;
        }
        expect(validateSessionRequest(r.request)).toEqual(r);
        expect(Object.hasOwn(r.request, 'externalId') !== Object.hasOwn(r.request, 'internalId')).toBe(true);
        if (r.request.externalId !== undefined) expect(r.request.externalId).toBe(r.request.externalId.trim().toLowerCase());
        expect(JSON.parse(JSON.stringify(r.request))).toEqual(r.request);
      }),
      { numRuns: 3000 },
    );
    // A generous timeout: 3,000 runs take a few seconds alone, more on a loaded 2-core machine.
  }, 30_000);

  // The property above gets an accepted request about twice in 300,000 inputs: here every field is
  // valid or left out, and what the values hold is anything (about 4 in 5 accepted).
  test('an accepted request is accepted again unchanged and is what JSON sends (property, valid-leaning requests)', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/);
    const anything = fc.anything({ withNullPrototype: true, withBoxedValues: true, withDate: true, withSparseArray: true });
    const requests = fc.record(
      {
        deploymentId: fc.integer({ min: 1, max: 3 }),
        externalId: fc.string({ minLength: 1 }).filter((id) => id.trim() != ''),
        email: fc.emailAddress(),
        embedTenantName: fc.stringMatching(/^[a-z][a-z0-9-]{3,35}[a-z0-9]$/),
        creatorMode: fc.boolean(),
        userProfile: fc.record({ displayName: fc.string(), picture: fc.webUrl() }, { requiredKeys: [] }),
        userAttributes: fc.uniqueArray(
          fc.record({
            name,
            value: fc.oneof(fc.string(), fc.double(), fc.array(fc.string()), fc.array(fc.double()), fc.constant(null), anything),
          }),
          { selector: (attribute) => attribute.name, maxLength: 4 },
        ),
        groups: fc.array(name, { maxLength: 4 }),
        securityContext: fc.dictionary(fc.string(), anything),
        settings: fc.oneof(fc.record({ showDashboardChat: fc.boolean() }, { requiredKeys: [] }), fc.dictionary(fc.string(), anything)),
      },
      { requiredKeys: ['deploymentId', 'externalId'] },
    );
    let accepted = 0;
    fc.assert(
      fc.property(requests, (input) => {
        const r = validateSessionRequest(input);
        if (!r.ok) return;
        accepted++;
        expect(validateSessionRequest(r.request)).toEqual(r);
        expect(JSON.parse(JSON.stringify(r.request))).toEqual(r.request);
      }),
      { numRuns: 1000 },
    );
    expect(accepted).toBeGreaterThan(500);
  }, 30_000); // 1,000 runs: 1-3 s, more on a loaded 2-core machine
});
