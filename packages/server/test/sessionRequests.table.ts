/**
 * The generate-session request table: one or more cases per rule of the interface document
 * (`POST /api/v1/embed/generate-session`, rules 1–10, the request field table and the
 * `embedTenantName` limit), each with what the client's validation says and what the
 * platform answers. `packages/server` runs it against `validateSessionRequest` and the client;
 * `packages/mock` runs it against the mock platform.
 *
 * Platform fixture state the `platform` column assumes:
 * - deployments `1` and `2` exist;
 * - API key `test-key-0123456789` is unscoped (all deployments); API key `scoped-key-0123456789` is scoped to
 *   deployment `1` only (rule 10: deployment `2` with it → 403); any other key, or no
 *   `Authorization` header → 401;
 * - tenant flag `useCreatorMode` is true;
 * - tenant-wide user attributes: `region` (string), `level` (number), `tags` (string_array);
 * - tenant-wide groups: `sales`, `support`;
 * - internal user `alice` exists (no other internal user does);
 * - embed tenant `acme-corp` exists with scoped attribute `department` (string) and scoped
 *   group `analysts`; its scope holds none of the tenant-wide attributes or groups (rules 4, 5).
 *   Any other valid `embedTenantName` names a new, empty embed tenant, created on first use.
 *
 * Conventions:
 * - `apiKey` is the key the case is sent with (default `test-key-0123456789`; `null` sends no
 *   `Authorization` header at all).
 * - Every request the client rejects is answered 400 by the platform (the document gives 400
 *   for duplicate attribute names and only "request rejected" for the other static rules).
 * - The document gives messages but not statuses for unresolved names, type changes and
 *   mismatched value types; this table assumes 400 for them. `message`, when present, is a
 *   substring of the platform's error message.
 * - `client.field` is the path `validateSessionRequest` reports (`userAttributes[1].name`);
 *   `(request)` means the body as a whole.
 */

/** One row of the table. */
export interface SessionRequestCase {
  /** What the case checks, unique in the table. */
  name: string;
  /** Where the document states the rule, e.g. `rule 3` or `fields` (the request field table). */
  rule: string;
  /** The JSON body sent to generate-session (anything: the validator must take any input). */
  request: unknown;
  /** The API key sent with it; default `test-key-0123456789`, `null` sends no `Authorization` header. */
  apiKey?: string | null;
  /** What `validateSessionRequest` says. */
  client: { ok: true } | { ok: false; field: string };
  /** What the platform with the fixture state above answers. */
  platform: { status: 200 } | { status: number; message?: string };
}

const ok = { ok: true } as const;
const okay = { status: 200 } as const;
const bad = (field: string) => ({ ok: false, field }) as const;
const rejected = { status: 400 } as const;
const ext = { deploymentId: 1, externalId: 'user-1' };
const creator = { ...ext, creatorMode: true, embedTenantName: 'acme-corp' };

export const sessionRequestCases: SessionRequestCase[] = [
  // The request as a whole
  { name: 'body is an array', rule: 'fields', request: [ext], client: bad('(request)'), platform: rejected },
  { name: 'body is null', rule: 'fields', request: null, client: bad('(request)'), platform: rejected },
  { name: 'body is a string', rule: 'fields', request: 'deploymentId=1', client: bad('(request)'), platform: rejected },
  {
    name: 'unknown field (typo of groups)',
    rule: 'fields',
    request: { ...ext, group: ['sales'] },
    client: bad('group'),
    platform: rejected,
  },
  {
    name: '__proto__ own key is an unknown field',
    rule: 'fields',
    request: JSON.parse('{"deploymentId":1,"externalId":"x","__proto__":{"groups":["sales"]}}'),
    client: bad('__proto__'),
    platform: rejected,
  },
  {
    name: 'ephemeralTtlSeconds was removed in 0.2.0',
    rule: 'versioning 0.2.0',
    request: { ...ext, ephemeralTtlSeconds: 60 },
    client: bad('ephemeralTtlSeconds'),
    platform: rejected,
  },

  // deploymentId
  { name: 'minimal external-user request', rule: 'fields', request: ext, client: ok, platform: okay },
  { name: 'deploymentId missing', rule: 'fields', request: { externalId: 'user-1' }, client: bad('deploymentId'), platform: rejected },
  {
    name: 'deploymentId as a string',
    rule: 'fields',
    request: { deploymentId: '1', externalId: 'user-1' },
    client: bad('deploymentId'),
    platform: rejected,
  },
  {
    name: 'deploymentId not an integer',
    rule: 'fields',
    request: { deploymentId: 1.5, externalId: 'user-1' },
    client: bad('deploymentId'),
    platform: rejected,
  },
  {
    name: 'deploymentId null',
    rule: 'fields',
    request: { deploymentId: null, externalId: 'user-1' },
    client: bad('deploymentId'),
    platform: rejected,
  },
  { name: 'deployment 2 with the unscoped key', rule: 'rule 10', request: { ...ext, deploymentId: 2 }, client: ok, platform: okay },

  // externalId / internalId
  {
    name: 'neither externalId nor internalId',
    rule: 'fields',
    request: { deploymentId: 1 },
    client: bad('externalId'),
    platform: rejected,
  },
  {
    name: 'both externalId and internalId',
    rule: 'fields',
    request: { ...ext, internalId: 'alice' },
    client: bad('internalId'),
    platform: rejected,
  },
  {
    name: 'externalId empty after trimming',
    rule: 'fields',
    request: { deploymentId: 1, externalId: '   ' },
    client: bad('externalId'),
    platform: rejected,
  },
  {
    name: 'externalId a number',
    rule: 'fields',
    request: { deploymentId: 1, externalId: 42 },
    client: bad('externalId'),
    platform: rejected,
  },
  {
    name: 'externalId with spaces and capitals (normalized)',
    rule: 'fields',
    request: { deploymentId: 1, externalId: '  Jane.Doe@Example.COM ' },
    client: ok,
    platform: okay,
  },
  { name: 'internalId of an existing user', rule: 'rule 1', request: { deploymentId: 1, internalId: 'alice' }, client: ok, platform: okay },
  {
    name: 'internalId of a user that does not exist',
    rule: 'fields',
    request: { deploymentId: 1, internalId: 'bob' },
    client: ok,
    platform: rejected,
  },
  { name: 'internalId empty', rule: 'fields', request: { deploymentId: 1, internalId: '' }, client: bad('internalId'), platform: rejected },

  // rule 1: fields forbidden with internalId; email only with externalId
  {
    name: 'internalId with groups',
    rule: 'rule 1',
    request: { deploymentId: 1, internalId: 'alice', groups: ['sales'] },
    client: bad('groups'),
    platform: rejected,
  },
  {
    name: 'internalId with userAttributes',
    rule: 'rule 1',
    request: { deploymentId: 1, internalId: 'alice', userAttributes: [{ name: 'region', value: 'emea' }] },
    client: bad('userAttributes'),
    platform: rejected,
  },
  {
    name: 'internalId with groupDefinitions',
    rule: 'rule 1',
    request: { deploymentId: 1, internalId: 'alice', creatorMode: true, embedTenantName: 'acme-corp', groupDefinitions: [{ name: 'ops' }] },
    client: bad('groupDefinitions'),
    platform: rejected,
  },
  {
    name: 'internalId with userAttributeDefinitions',
    rule: 'rule 1',
    request: {
      deploymentId: 1,
      internalId: 'alice',
      creatorMode: true,
      embedTenantName: 'acme-corp',
      userAttributeDefinitions: [{ name: 'team', type: 'string' }],
    },
    client: bad('userAttributeDefinitions'),
    platform: rejected,
  },
  {
    name: 'internalId with securityContext',
    rule: 'rule 1',
    request: { deploymentId: 1, internalId: 'alice', securityContext: { tenant: 'a' } },
    client: bad('securityContext'),
    platform: rejected,
  },
  {
    name: 'internalId with userProfile',
    rule: 'rule 1',
    request: { deploymentId: 1, internalId: 'alice', userProfile: { displayName: 'Alice' } },
    client: bad('userProfile'),
    platform: rejected,
  },
  {
    name: 'internalId with email',
    rule: 'fields',
    request: { deploymentId: 1, internalId: 'alice', email: 'alice@example.com' },
    client: bad('email'),
    platform: rejected,
  },
  {
    name: 'internalId with settings',
    rule: 'rule 9',
    request: { deploymentId: 1, internalId: 'alice', settings: { showDashboardChat: false } },
    client: ok,
    platform: okay,
  },
  { name: 'externalId with email', rule: 'fields', request: { ...ext, email: 'jane@example.com' }, client: ok, platform: okay },
  { name: 'email not a string', rule: 'fields', request: { ...ext, email: 7 }, client: bad('email'), platform: rejected },
  { name: 'email without @', rule: 'fields', request: { ...ext, email: 'jane' }, client: bad('email'), platform: rejected },

  // rule 2: userProfile
  {
    name: 'userProfile with https picture',
    rule: 'rule 2',
    request: { ...ext, userProfile: { displayName: 'Jane', picture: 'https://cdn.example.com/jane.png' } },
    client: ok,
    platform: okay,
  },
  {
    name: 'userProfile with http picture',
    rule: 'rule 2',
    request: { ...ext, userProfile: { picture: 'http://cdn.example.com/jane.png' } },
    client: ok,
    platform: okay,
  },
  {
    name: 'userProfile with only displayName',
    rule: 'rule 2',
    request: { ...ext, userProfile: { displayName: 'Jane' } },
    client: ok,
    platform: okay,
  },
  {
    name: 'picture is a relative URL',
    rule: 'rule 2',
    request: { ...ext, userProfile: { picture: '/avatars/jane.png' } },
    client: bad('userProfile.picture'),
    platform: rejected,
  },
  {
    name: 'picture is protocol-relative',
    rule: 'rule 2',
    request: { ...ext, userProfile: { picture: '//cdn.example.com/jane.png' } },
    client: bad('userProfile.picture'),
    platform: rejected,
  },
  {
    name: 'picture is ftp',
    rule: 'rule 2',
    request: { ...ext, userProfile: { picture: 'ftp://cdn.example.com/jane.png' } },
    client: bad('userProfile.picture'),
    platform: rejected,
  },
  {
    name: 'picture is a data URL',
    rule: 'rule 2',
    request: { ...ext, userProfile: { picture: 'data:image/png;base64,iVBORw0KGgo=' } },
    client: bad('userProfile.picture'),
    platform: rejected,
  },
  {
    name: 'picture is javascript:',
    rule: 'rule 2',
    request: { ...ext, userProfile: { picture: 'javascript:alert(1)' } },
    client: bad('userProfile.picture'),
    platform: rejected,
  },
  {
    name: 'displayName not a string',
    rule: 'rule 2',
    request: { ...ext, userProfile: { displayName: 5 } },
    client: bad('userProfile.displayName'),
    platform: rejected,
  },
  {
    name: 'userProfile not an object',
    rule: 'rule 2',
    request: { ...ext, userProfile: 'Jane' },
    client: bad('userProfile'),
    platform: rejected,
  },

  // embedTenantName
  { name: 'embedTenantName valid', rule: 'fields', request: { ...ext, embedTenantName: 'acme-corp' }, client: ok, platform: okay },
  { name: 'embedTenantName of 5 characters', rule: 'limits', request: { ...ext, embedTenantName: 'abcde' }, client: ok, platform: okay },
  {
    name: 'embedTenantName of 36 characters',
    rule: 'limits',
    request: { ...ext, embedTenantName: `a${'b'.repeat(34)}1` },
    client: ok,
    platform: okay,
  },
  {
    name: 'embedTenantName of 4 characters',
    rule: 'limits',
    request: { ...ext, embedTenantName: 'abcd' },
    client: bad('embedTenantName'),
    platform: rejected,
  },
  {
    name: 'embedTenantName of 37 characters',
    rule: 'limits',
    request: { ...ext, embedTenantName: `a${'b'.repeat(35)}1` },
    client: bad('embedTenantName'),
    platform: rejected,
  },
  {
    name: 'embedTenantName with capitals',
    rule: 'fields',
    request: { ...ext, embedTenantName: 'Acme-corp' },
    client: bad('embedTenantName'),
    platform: rejected,
  },
  {
    name: 'embedTenantName starts with a digit',
    rule: 'fields',
    request: { ...ext, embedTenantName: '1acme' },
    client: bad('embedTenantName'),
    platform: rejected,
  },
  {
    name: 'embedTenantName ends with a hyphen',
    rule: 'fields',
    request: { ...ext, embedTenantName: 'acme-' },
    client: bad('embedTenantName'),
    platform: rejected,
  },
  {
    name: 'embedTenantName with an underscore',
    rule: 'fields',
    request: { ...ext, embedTenantName: 'acme_corp' },
    client: bad('embedTenantName'),
    platform: rejected,
  },
  {
    name: 'embedTenantName not a string',
    rule: 'fields',
    request: { ...ext, embedTenantName: 12345 },
    client: bad('embedTenantName'),
    platform: rejected,
  },
  {
    name: 'creatorMode not a boolean',
    rule: 'fields',
    request: { ...ext, creatorMode: 'yes' },
    client: bad('creatorMode'),
    platform: rejected,
  },

  // rule 3: userAttributes
  {
    name: 'string attribute',
    rule: 'rule 3',
    request: { ...ext, userAttributes: [{ name: 'region', value: 'emea' }] },
    client: ok,
    platform: okay,
  },
  {
    name: 'number attribute',
    rule: 'rule 3',
    request: { ...ext, userAttributes: [{ name: 'level', value: 3 }] },
    client: ok,
    platform: okay,
  },
  {
    name: 'string_array attribute',
    rule: 'rule 3',
    request: { ...ext, userAttributes: [{ name: 'tags', value: ['a', 'b'] }] },
    client: ok,
    platform: okay,
  },
  {
    name: 'null clears a value',
    rule: 'rule 3',
    request: { ...ext, userAttributes: [{ name: 'region', value: null }] },
    client: ok,
    platform: okay,
  },
  {
    name: 'several attributes',
    rule: 'rule 3',
    request: {
      ...ext,
      userAttributes: [
        { name: 'region', value: 'emea' },
        { name: 'level', value: 2 },
      ],
    },
    client: ok,
    platform: okay,
  },
  {
    name: 'boolean value',
    rule: 'rule 3',
    request: { ...ext, userAttributes: [{ name: 'region', value: true }] },
    client: bad('userAttributes[0].value'),
    platform: rejected,
  },
  {
    name: 'object value',
    rule: 'rule 3',
    request: { ...ext, userAttributes: [{ name: 'region', value: { a: 1 } }] },
    client: bad('userAttributes[0].value'),
    platform: rejected,
  },
  {
    name: 'mixed array value',
    rule: 'rule 3',
    request: { ...ext, userAttributes: [{ name: 'tags', value: ['a', 1] }] },
    client: bad('userAttributes[0].value'),
    platform: rejected,
  },
  {
    name: 'non-finite number value',
    rule: 'rule 3',
    request: { ...ext, userAttributes: [{ name: 'level', value: Number.POSITIVE_INFINITY }] },
    client: bad('userAttributes[0].value'),
    platform: rejected,
  },
  {
    name: 'value missing',
    rule: 'rule 3',
    request: { ...ext, userAttributes: [{ name: 'region' }] },
    client: bad('userAttributes[0].value'),
    platform: rejected,
  },
  {
    name: 'attribute name missing',
    rule: 'rule 3',
    request: { ...ext, userAttributes: [{ value: 'emea' }] },
    client: bad('userAttributes[0].name'),
    platform: rejected,
  },
  {
    name: 'duplicate attribute names',
    rule: 'rule 3',
    request: {
      ...ext,
      userAttributes: [
        { name: 'region', value: 'emea' },
        { name: 'region', value: 'apac' },
      ],
    },
    client: bad('userAttributes[1].name'),
    platform: { status: 400 },
  },
  {
    name: 'userAttributes not an array',
    rule: 'rule 3',
    request: { ...ext, userAttributes: { region: 'emea' } },
    client: bad('userAttributes'),
    platform: rejected,
  },
  {
    name: 'unknown attribute name',
    rule: 'rule 3',
    request: { ...ext, userAttributes: [{ name: 'plan', value: 'gold' }] },
    client: ok,
    platform: { status: 400, message: 'User attributes not found' },
  },
  {
    name: 'value type differs from the definition',
    rule: 'rule 3',
    request: { ...ext, userAttributes: [{ name: 'region', value: 5 }] },
    client: ok,
    platform: rejected,
  },
  {
    name: 'number for a string_array attribute',
    rule: 'rule 3',
    request: { ...ext, userAttributes: [{ name: 'tags', value: 5 }] },
    client: ok,
    platform: rejected,
  },

  // rule 4: attribute lookup scope
  {
    name: 'creator mode resolves attributes in the embed tenant scope',
    rule: 'rule 4',
    request: { ...creator, userAttributes: [{ name: 'department', value: 'finance' }] },
    client: ok,
    platform: okay,
  },
  {
    name: 'creator mode does not see tenant-wide attributes',
    rule: 'rule 4',
    request: { ...creator, userAttributes: [{ name: 'region', value: 'emea' }] },
    client: ok,
    platform: { status: 400, message: 'User attributes not found' },
  },
  {
    name: 'creatorMode false resolves tenant-wide attributes',
    rule: 'rule 4',
    request: { ...ext, creatorMode: false, userAttributes: [{ name: 'region', value: 'emea' }] },
    client: ok,
    platform: okay,
  },

  // rule 5: groups
  { name: 'existing tenant-wide group', rule: 'rule 5', request: { ...ext, groups: ['sales'] }, client: ok, platform: okay },
  { name: 'empty groups clears memberships', rule: 'rule 5', request: { ...ext, groups: [] }, client: ok, platform: okay },
  {
    name: 'unknown group',
    rule: 'rule 5',
    request: { ...ext, groups: ['marketing'] },
    client: ok,
    platform: { status: 400, message: 'Groups with names marketing not found' },
  },
  {
    name: 'unknown group among known ones',
    rule: 'rule 5',
    request: { ...ext, groups: ['sales', 'marketing'] },
    client: ok,
    platform: { status: 400, message: 'marketing' },
  },
  { name: 'groups as a string', rule: 'rule 5', request: { ...ext, groups: 'sales' }, client: bad('groups'), platform: rejected },
  {
    name: 'group name not a string',
    rule: 'rule 5',
    request: { ...ext, groups: ['sales', 1] },
    client: bad('groups[1]'),
    platform: rejected,
  },
  {
    name: 'creator mode resolves groups in the embed tenant scope',
    rule: 'rule 5',
    request: { ...creator, groups: ['analysts'] },
    client: ok,
    platform: okay,
  },
  {
    name: 'creator mode does not see tenant-wide groups',
    rule: 'rule 5',
    request: { ...creator, groups: ['sales'] },
    client: ok,
    platform: { status: 400, message: 'Groups with names sales not found' },
  },

  // rule 6: definitions need creatorMode and embedTenantName
  {
    name: 'groupDefinitions without creatorMode',
    rule: 'rule 6',
    request: { ...ext, embedTenantName: 'acme-corp', groupDefinitions: [{ name: 'ops' }] },
    client: bad('groupDefinitions'),
    platform: rejected,
  },
  {
    name: 'groupDefinitions with creatorMode false',
    rule: 'rule 6',
    request: { ...ext, creatorMode: false, embedTenantName: 'acme-corp', groupDefinitions: [{ name: 'ops' }] },
    client: bad('groupDefinitions'),
    platform: rejected,
  },
  {
    name: 'groupDefinitions without embedTenantName',
    rule: 'rule 6',
    request: { ...ext, creatorMode: true, groupDefinitions: [{ name: 'ops' }] },
    client: bad('groupDefinitions'),
    platform: rejected,
  },
  {
    name: 'userAttributeDefinitions without creatorMode',
    rule: 'rule 6',
    request: { ...ext, embedTenantName: 'acme-corp', userAttributeDefinitions: [{ name: 'team', type: 'string' }] },
    client: bad('userAttributeDefinitions'),
    platform: rejected,
  },
  {
    name: 'userAttributeDefinitions without embedTenantName',
    rule: 'rule 6',
    request: { ...ext, creatorMode: true, userAttributeDefinitions: [{ name: 'team', type: 'string' }] },
    client: bad('userAttributeDefinitions'),
    platform: rejected,
  },
  {
    name: 'attribute defined and set in one request',
    rule: 'rule 6',
    request: {
      ...creator,
      userAttributeDefinitions: [{ name: 'team', type: 'string' }],
      userAttributes: [{ name: 'team', value: 'blue' }],
    },
    client: ok,
    platform: okay,
  },
  {
    name: 'group defined and joined in one request',
    rule: 'rule 6',
    request: { ...creator, groupDefinitions: [{ name: 'ops', description: 'Operations' }], groups: ['ops'] },
    client: ok,
    platform: okay,
  },
  {
    name: 'groupDefinitions not an array',
    rule: 'rule 6',
    request: { ...creator, groupDefinitions: { name: 'ops' } },
    client: bad('groupDefinitions'),
    platform: rejected,
  },

  // rule 7: groupDefinitions
  {
    name: 'existing group name is reused',
    rule: 'rule 7',
    request: { ...creator, groupDefinitions: [{ name: 'analysts', description: 'Analysts' }] },
    client: ok,
    platform: okay,
  },
  {
    name: 'duplicate group definitions',
    rule: 'rule 7',
    request: { ...creator, groupDefinitions: [{ name: 'ops' }, { name: 'ops' }] },
    client: bad('groupDefinitions[1].name'),
    platform: rejected,
  },
  {
    name: 'group definition without name',
    rule: 'rule 7',
    request: { ...creator, groupDefinitions: [{ description: 'Operations' }] },
    client: bad('groupDefinitions[0].name'),
    platform: rejected,
  },
  {
    name: 'group description not a string',
    rule: 'rule 7',
    request: { ...creator, groupDefinitions: [{ name: 'ops', description: 1 }] },
    client: bad('groupDefinitions[0].description'),
    platform: rejected,
  },

  // rule 8: userAttributeDefinitions
  {
    name: 'every allowed definition type',
    rule: 'rule 8',
    request: {
      ...creator,
      userAttributeDefinitions: [
        { name: 'a1', type: 'string' },
        { name: 'a2', type: 'number' },
        { name: 'a3', type: 'string_array' },
        { name: 'a4', type: 'number_array', displayName: 'A4', defaultValue: '[]', description: 'four' },
      ],
    },
    client: ok,
    platform: okay,
  },
  {
    name: 'same type as the stored definition',
    rule: 'rule 8',
    request: { ...creator, userAttributeDefinitions: [{ name: 'department', type: 'string' }] },
    client: ok,
    platform: okay,
  },
  {
    name: 'type change of a stored definition',
    rule: 'rule 8',
    request: { ...creator, userAttributeDefinitions: [{ name: 'department', type: 'number' }] },
    client: ok,
    platform: { status: 400, message: 'cannot change type' },
  },
  {
    name: 'definition type outside the allowed set',
    rule: 'rule 8',
    request: { ...creator, userAttributeDefinitions: [{ name: 'team', type: 'boolean' }] },
    client: bad('userAttributeDefinitions[0].type'),
    platform: rejected,
  },
  {
    name: 'definition without type',
    rule: 'rule 8',
    request: { ...creator, userAttributeDefinitions: [{ name: 'team' }] },
    client: bad('userAttributeDefinitions[0].type'),
    platform: rejected,
  },
  {
    name: 'definition without name',
    rule: 'rule 8',
    request: { ...creator, userAttributeDefinitions: [{ type: 'string' }] },
    client: bad('userAttributeDefinitions[0].name'),
    platform: rejected,
  },
  {
    name: 'duplicate attribute definitions',
    rule: 'rule 8',
    request: {
      ...creator,
      userAttributeDefinitions: [
        { name: 'team', type: 'string' },
        { name: 'team', type: 'number' },
      ],
    },
    client: bad('userAttributeDefinitions[1].name'),
    platform: rejected,
  },
  {
    name: 'definition defaultValue not a string',
    rule: 'rule 8',
    request: { ...creator, userAttributeDefinitions: [{ name: 'team', type: 'number', defaultValue: 0 }] },
    client: bad('userAttributeDefinitions[0].defaultValue'),
    platform: rejected,
  },

  // securityContext
  {
    name: 'securityContext object',
    rule: 'fields',
    request: { ...ext, securityContext: { tenantId: 't1', roles: ['viewer'] } },
    client: ok,
    platform: okay,
  },
  {
    name: 'securityContext an array',
    rule: 'fields',
    request: { ...ext, securityContext: ['t1'] },
    client: bad('securityContext'),
    platform: rejected,
  },

  // rule 9: settings
  {
    name: 'showDashboardChat false',
    rule: 'rule 9',
    request: { ...ext, settings: { showDashboardChat: false } },
    client: ok,
    platform: okay,
  },
  {
    name: 'showDashboardChat true',
    rule: 'rule 9',
    request: { ...ext, settings: { showDashboardChat: true } },
    client: ok,
    platform: okay,
  },
  { name: 'empty settings inherit', rule: 'rule 9', request: { ...ext, settings: {} }, client: ok, platform: okay },
  {
    name: 'showDashboardChat as the string "false"',
    rule: 'rule 9',
    request: { ...ext, settings: { showDashboardChat: 'false' } },
    client: bad('settings.showDashboardChat'),
    platform: rejected,
  },
  { name: 'settings not an object', rule: 'rule 9', request: { ...ext, settings: true }, client: bad('settings'), platform: rejected },

  // rule 10 and authentication
  { name: 'scoped key inside its scope', rule: 'rule 10', apiKey: 'scoped-key-0123456789', request: ext, client: ok, platform: okay },
  {
    name: 'scoped key outside its scope',
    rule: 'rule 10',
    apiKey: 'scoped-key-0123456789',
    request: { ...ext, deploymentId: 2 },
    client: ok,
    platform: { status: 403 },
  },
  { name: 'no API key', rule: 'authentication 7', apiKey: null, request: ext, client: ok, platform: { status: 401 } },
  {
    name: 'unknown API key',
    rule: 'authentication 7',
    apiKey: 'not-a-key-0123456789',
    request: ext,
    client: ok,
    platform: { status: 401 },
  },
];
