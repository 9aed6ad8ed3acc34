import { USER_ATTRIBUTE_TYPES, type GenerateSessionRequest, type SessionRequestValidation } from './types';

type Obj = Record<string, unknown>;

class Invalid {
  constructor(
    readonly field: string,
    readonly rule: string,
    readonly message: string,
  ) {}
}

const fail = (field: string, rule: string, message: string): never => {
  throw new Invalid(field, rule, message);
};

// Fields that change the user, refused with internalId (rule 1); email is external-only too.
const EXTERNAL_ONLY = [
  'email',
  'userProfile',
  'userAttributes',
  'groups',
  'userAttributeDefinitions',
  'groupDefinitions',
  'securityContext',
];
const KNOWN = new Set(['deploymentId', 'externalId', 'internalId', 'embedTenantName', 'creatorMode', 'settings', ...EXTERNAL_ONLY]);
const TENANT_NAME = /^[a-z][a-z0-9-]*[a-z0-9]$/;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);
const has = (o: Obj, key: string) => Object.prototype.hasOwnProperty.call(o, key) && o[key] !== undefined;

function object(v: unknown, field: string): Obj {
  return isObject(v) ? v : fail(field, 'type', `${field} must be an object, got ${describe(v)}`);
}

function string(v: unknown, field: string): string {
  return typeof v === 'string' ? v : fail(field, 'type', `${field} must be a string, got ${describe(v)}`);
}

function name(v: unknown, field: string): string {
  if (v === undefined) fail(field, 'required', `${field} is required`);
  if (string(v, field).trim() === '') fail(field, 'non-empty', `${field} must not be empty`);
  return v as string;
}

function array(v: unknown, field: string): unknown[] {
  return Array.isArray(v) ? v : fail(field, 'type', `${field} must be an array, got ${describe(v)}`);
}

function onlyKeys(o: Obj, field: string, allowed: readonly string[]) {
  for (const key of Object.keys(o))
    if (!allowed.includes(key))
      fail(`${field}.${key || '""'}`, 'unknown-field', `${field}.${key || '""'} is not a known field; allowed: ${allowed.join(', ')}`);
}

function noDuplicates(names: string[], field: string, rule: string) {
  const seen = new Set<string>();
  names.forEach((n, i) => {
    if (seen.has(n))
      fail(`${field}[${i}].name`, 'duplicate', `${field}[${i}].name "${n}" appears twice; names must be unique in one request (${rule})`);
    seen.add(n);
  });
}

function attributeValue(v: unknown, field: string): UserAttributeValueType {
  const finite = (x: unknown) => typeof x === 'number' && Number.isFinite(x);
  if (v === undefined) fail(field, 'required', `${field} is required (use null to clear a value)`);
  if (v === null || typeof v === 'string' || finite(v)) return v as UserAttributeValueType;
  if (Array.isArray(v) && (v.every((x) => typeof x === 'string') || v.every(finite))) return [...v] as UserAttributeValueType;
  return fail(
    field,
    'type',
    `${field} must be a string, a finite number, an array of strings, an array of numbers, or null (rule 3), got ${Array.isArray(v) ? 'a mixed or invalid array' : describe(v)}`,
  );
}
type UserAttributeValueType = string | number | string[] | number[] | null;

function definitions(
  o: Obj,
  field: 'groupDefinitions' | 'userAttributeDefinitions',
  ruleRef: string,
  build: (item: Obj, at: string) => Obj,
): Obj[] {
  const list = array(o[field], field);
  if (o.creatorMode !== true) fail(field, 'requires-creatorMode', `${field} requires creatorMode: true (rule 6)`);
  if (!has(o, 'embedTenantName')) fail(field, 'requires-embedTenantName', `${field} requires an embedTenantName (rule 6)`);
  const items = list.map((item, i) => build(object(item, `${field}[${i}]`), `${field}[${i}]`));
  noDuplicates(
    items.map((d) => d.name as string),
    field,
    ruleRef,
  );
  return items;
}

function optionalStrings(item: Obj, at: string, keys: string[], out: Obj) {
  for (const key of keys) if (has(item, key)) out[key] = string(item[key], `${at}.${key}`);
}

function validate(input: unknown): GenerateSessionRequest {
  const o = isObject(input) ? input : fail('(request)', 'type', `the request must be a JSON object, got ${describe(input)}`);
  for (const key of Object.keys(o)) {
    if (key === 'ephemeralTtlSeconds')
      fail(
        key,
        'removed',
        'ephemeralTtlSeconds was removed from the session request in release 0.2.0; remove it (sessions last 5 minutes)',
      );
    if (!KNOWN.has(key))
      fail(key || '""', 'unknown-field', `${key || '""'} is not a field of generate-session; known fields: ${[...KNOWN].join(', ')}`);
  }
  const out: Obj = {};

  if (!has(o, 'deploymentId'))
    fail('deploymentId', 'required', 'deploymentId is required (the number of the deployment the session grants access to)');
  if (!Number.isSafeInteger(o.deploymentId) || (o.deploymentId as number) < 1)
    fail(
      'deploymentId',
      'type',
      `deploymentId must be a positive integer, got ${typeof o.deploymentId === 'number' ? o.deploymentId : describe(o.deploymentId)}`,
    );
  out.deploymentId = o.deploymentId;

  const external = has(o, 'externalId');
  const internal = has(o, 'internalId');
  if (external && internal) fail('internalId', 'exactly-one', 'pass exactly one of externalId and internalId, not both');
  if (!external && !internal)
    fail('externalId', 'exactly-one', 'pass exactly one of externalId (a user of your app) and internalId (an existing platform user)');
  if (internal) {
    out.internalId = name(o.internalId, 'internalId');
    for (const key of EXTERNAL_ONLY)
      if (has(o, key))
        fail(
          key,
          key === 'email' ? 'only-with-externalId' : 'not-with-internalId',
          key === 'email'
            ? 'email is only allowed with externalId'
            : `${key} is not allowed with internalId: the internal user's own permissions apply (rule 1)`,
        );
  } else {
    // The platform stores externalId trimmed and lowercased; sending it that way keeps ids comparable.
    out.externalId = name(o.externalId, 'externalId').trim().toLowerCase();
  }

  if (has(o, 'email')) {
    out.email = string(o.email, 'email');
    if (!/^[^\s@]+@[^\s@]+$/.test(out.email as string)) fail('email', 'format', 'email must be an e-mail address like "jane@example.com"');
  }

  if (has(o, 'userProfile')) {
    const p = object(o.userProfile, 'userProfile');
    onlyKeys(p, 'userProfile', ['displayName', 'picture']);
    const profile: Obj = {};
    optionalStrings(p, 'userProfile', ['displayName', 'picture'], profile);
    if (has(p, 'picture')) {
      let url: URL | undefined;
      try {
        url = new URL(profile.picture as string);
      } catch {}
      if (!/^https?:\/\/[^/]/i.test(profile.picture as string) || !url || !url.hostname)
        fail(
          'userProfile.picture',
          'absolute-http-url',
          `userProfile.picture must be an absolute http:// or https:// URL (rule 2), got ${JSON.stringify((profile.picture as string).slice(0, 60))}`,
        );
    }
    out.userProfile = profile;
  }

  if (has(o, 'embedTenantName')) {
    const t = string(o.embedTenantName, 'embedTenantName');
    if (t.length < 5 || t.length > 36)
      fail('embedTenantName', 'length', `embedTenantName must be 5 to 36 characters long, got ${t.length}`);
    if (!TENANT_NAME.test(t))
      fail(
        'embedTenantName',
        'pattern',
        `embedTenantName may hold only lowercase a-z, 0-9 and "-", must start with a letter and end with a letter or digit, got ${JSON.stringify(t)}`,
      );
    out.embedTenantName = t;
  }

  if (has(o, 'creatorMode')) {
    if (typeof o.creatorMode !== 'boolean') fail('creatorMode', 'type', `creatorMode must be a boolean, got ${describe(o.creatorMode)}`);
    out.creatorMode = o.creatorMode;
  }

  // Definitions first: the platform validates them before groups and attribute values (rule 6).
  if (has(o, 'groupDefinitions'))
    out.groupDefinitions = definitions(o, 'groupDefinitions', 'rule 7', (item, at) => {
      onlyKeys(item, at, ['name', 'description']);
      const d: Obj = { name: name(item.name, `${at}.name`) };
      optionalStrings(item, at, ['description'], d);
      return d;
    });

  if (has(o, 'userAttributeDefinitions'))
    out.userAttributeDefinitions = definitions(o, 'userAttributeDefinitions', 'rule 8', (item, at) => {
      onlyKeys(item, at, ['name', 'type', 'displayName', 'defaultValue', 'description']);
      const d: Obj = { name: name(item.name, `${at}.name`) };
      if (!has(item, 'type')) fail(`${at}.type`, 'required', `${at}.type is required: one of ${USER_ATTRIBUTE_TYPES.join(', ')}`);
      if (!(USER_ATTRIBUTE_TYPES as readonly unknown[]).includes(item.type))
        fail(
          `${at}.type`,
          'allowed-values',
          `${at}.type must be one of ${USER_ATTRIBUTE_TYPES.join(', ')} (rule 8), got ${JSON.stringify(item.type)}`,
        );
      d.type = item.type;
      optionalStrings(item, at, ['displayName', 'defaultValue', 'description'], d);
      return d;
    });

  if (has(o, 'userAttributes')) {
    const list = array(o.userAttributes, 'userAttributes').map((item, i) => {
      const at = `userAttributes[${i}]`;
      const a = object(item, at);
      onlyKeys(a, at, ['name', 'value']);
      return { name: name(a.name, `${at}.name`), value: attributeValue(a.value, `${at}.value`) };
    });
    noDuplicates(
      list.map((a) => a.name),
      'userAttributes',
      'rule 3',
    );
    out.userAttributes = list;
  }

  if (has(o, 'groups')) out.groups = array(o.groups, 'groups').map((g, i) => name(g, `groups[${i}]`));

  if (has(o, 'securityContext')) {
    const c = object(o.securityContext, 'securityContext');
    let json: string | undefined;
    try {
      json = JSON.stringify(c);
    } catch {}
    if (json === undefined) fail('securityContext', 'json', 'securityContext must be JSON-serializable (no cycles or BigInt)');
    out.securityContext = JSON.parse(json as string);
  }

  if (has(o, 'settings')) {
    const s = object(o.settings, 'settings');
    if (has(s, 'showDashboardChat') && typeof s.showDashboardChat !== 'boolean')
      fail(
        'settings.showDashboardChat',
        'type',
        `settings.showDashboardChat must be true, false or omitted (rule 9), got ${JSON.stringify(s.showDashboardChat) ?? describe(s.showDashboardChat)}`,
      );
    // Settings grow with the platform: unknown keys pass through as they are.
    out.settings = { ...s };
  }

  return out as unknown as GenerateSessionRequest;
}

/**
 * Checks a generate-session request against the interface document's static rules, before
 * anything is sent: `deploymentId` required; exactly one of `externalId`/`internalId`; nothing
 * that changes the user with `internalId`; `email` only with `externalId`; the `embedTenantName`
 * pattern and length; `userProfile.picture` an absolute http(s) URL; attribute value types and
 * unique names; definitions only with `creatorMode` and an `embedTenantName`, unique names, an
 * allowed `type`; no unknown fields. What only the platform knows (whether a name, group,
 * user or deployment exists, key scopes) is left to it.
 *
 * Never throws. On success `request` is a normalized copy: `externalId` trimmed and
 * lowercased as the platform stores it, `undefined` fields dropped.
 *
 * @example
 * ```ts
 * const result = validateSessionRequest(body);
 * if (!result.ok) throw new Error(`${result.field}: ${result.message}`);
 * await client.generateSession(result.request);
 * ```
 */
export function validateSessionRequest(input: unknown): SessionRequestValidation {
  try {
    return { ok: true, request: validate(input) };
  } catch (e) {
    if (e instanceof Invalid) return { ok: false, field: e.field, rule: e.rule, message: e.message };
    return {
      ok: false,
      field: '(request)',
      rule: 'readable',
      message: 'the request could not be read as plain JSON data (a getter or proxy threw)',
    };
  }
}
