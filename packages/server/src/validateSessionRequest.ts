/*
 * The static rules of generate-session, checked before anything is sent.
 *
 * Two stages. The check stage reads the request field by field, in the order the platform
 * checks them (definitions before the values that use them, rule 6); every reader either
 * returns the field's normalized value or throws a `BrokenRule` naming the field, the rule and
 * the fix. The commit stage only runs when every field passed: it puts the normalized values
 * together into the request that is sent. `validateSessionRequest` turns a `BrokenRule` into
 * its `{ ok: false }` answer, so the exported function never throws.
 */
import { USER_ATTRIBUTE_TYPES, type GenerateSessionRequest, type SessionRequestValidation } from './types';

type JsonObject = Record<string, unknown>;
type AttributeValue = string | number | string[] | number[] | null;

/** The first rule a request breaks: thrown by a check, caught by `validateSessionRequest`. */
class BrokenRule {
  constructor(
    readonly field: string,
    readonly rule: string,
    readonly message: string,
  ) {}
}

function refuse(field: string, rule: string, message: string): never {
  throw new BrokenRule(field, rule, message);
}

// Fields that change the user, refused with internalId (rule 1); email is external-only too.
const EXTERNAL_ONLY_FIELDS = [
  'email',
  'userProfile',
  'userAttributes',
  'groups',
  'userAttributeDefinitions',
  'groupDefinitions',
  'securityContext',
];
const KNOWN_FIELDS = new Set([
  'deploymentId',
  'externalId',
  'internalId',
  'embedTenantName',
  'creatorMode',
  'settings',
  ...EXTERNAL_ONLY_FIELDS,
]);
const PROFILE_FIELDS = ['displayName', 'picture'];
const GROUP_DEFINITION_FIELDS = ['name', 'description'];
const ATTRIBUTE_DEFINITION_FIELDS = ['name', 'type', 'displayName', 'defaultValue', 'description'];
const ATTRIBUTE_DEFINITION_TEXT_FIELDS = ['displayName', 'defaultValue', 'description'];
const USER_ATTRIBUTE_FIELDS = ['name', 'value'];
const TENANT_NAME_PATTERN = /^[a-z][a-z0-9-]*[a-z0-9]$/;
const TENANT_NAME_MIN_LENGTH = 5;
const TENANT_NAME_MAX_LENGTH = 36;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;
const ABSOLUTE_HTTP_URL = /^https?:\/\/[^/]/i;

// ---------------------------------------------------------------------------------------------
// Small readers shared by the fields

function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How a value is named in a message: `null`, `an array`, or its `typeof`. */
function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/** Whether `object` has `key` itself, with a value other than `undefined`. */
function hasField(object: JsonObject, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key) && object[key] !== undefined;
}

/** How an empty key is shown in a field path. */
function keyForMessage(key: string): string {
  return key || '""';
}

function requireObject(value: unknown, field: string): JsonObject {
  if (isPlainObject(value)) return value;
  return refuse(field, 'type', `${field} must be an object, got ${describeValue(value)}`);
}

function requireString(value: unknown, field: string): string {
  if (typeof value === 'string') return value;
  return refuse(field, 'type', `${field} must be a string, got ${describeValue(value)}`);
}

function requireArray(value: unknown, field: string): unknown[] {
  // A copy with its holes as `undefined`: `map` and `every` skip a hole, which JSON sends as null.
  if (Array.isArray(value)) return Array.from(value);
  return refuse(field, 'type', `${field} must be an array, got ${describeValue(value)}`);
}

/** A name: present, a string, not blank. Returned as given (not trimmed). */
function requireName(value: unknown, field: string): string {
  if (value === undefined) refuse(field, 'required', `${field} is required`);
  const name = requireString(value, field);
  if (name.trim() === '') refuse(field, 'non-empty', `${field} must not be empty`);
  return name;
}

function refuseUnknownKeys(object: JsonObject, field: string, allowed: readonly string[]): void {
  for (const key of Object.keys(object)) {
    if (allowed.includes(key)) continue;
    const path = `${field}.${keyForMessage(key)}`;
    refuse(path, 'unknown-field', `${path} is not a known field; allowed: ${allowed.join(', ')}`);
  }
}

function refuseDuplicateNames(names: readonly string[], field: string, ruleReference: string): void {
  const seen = new Set<string>();
  names.forEach((name, index) => {
    if (seen.has(name))
      refuse(
        `${field}[${index}].name`,
        'duplicate',
        `${field}[${index}].name "${name}" appears twice; names must be unique in one request (${ruleReference})`,
      );
    seen.add(name);
  });
}

/** Copies the optional string fields `keys` of `item` that are present into `target`. */
function copyOptionalStrings(item: JsonObject, path: string, keys: readonly string[], target: JsonObject): void {
  for (const key of keys) if (hasField(item, key)) target[key] = requireString(item[key], `${path}.${key}`);
}

// ---------------------------------------------------------------------------------------------
// The check stage: one reader per field, each returning the normalized value

function requireRequestObject(input: unknown): JsonObject {
  if (isPlainObject(input)) return input;
  return refuse('(request)', 'type', `the request must be a JSON object, got ${describeValue(input)}`);
}

/** Refuses the first field, in the request's own key order, that generate-session does not know. */
function refuseUnknownFields(request: JsonObject): void {
  for (const key of Object.keys(request)) {
    if (key === 'ephemeralTtlSeconds')
      refuse(
        key,
        'removed',
        'ephemeralTtlSeconds was removed from the session request in release 0.2.0; remove it (sessions last 5 minutes)',
      );
    if (!KNOWN_FIELDS.has(key))
      refuse(
        keyForMessage(key),
        'unknown-field',
        `${keyForMessage(key)} is not a field of generate-session; known fields: ${[...KNOWN_FIELDS].join(', ')}`,
      );
  }
}

function readDeploymentId(request: JsonObject): number {
  if (!hasField(request, 'deploymentId'))
    refuse('deploymentId', 'required', 'deploymentId is required (the number of the deployment the session grants access to)');
  const deploymentId = request.deploymentId;
  if (Number.isSafeInteger(deploymentId) && (deploymentId as number) >= 1) return deploymentId as number;
  // A wrong number is quoted; anything else is named by its type.
  const got = typeof deploymentId === 'number' ? String(deploymentId) : describeValue(deploymentId);
  return refuse('deploymentId', 'type', `deploymentId must be a positive integer, got ${got}`);
}

/** Exactly one of externalId and internalId; with internalId, none of the fields that change the user (rule 1). */
function readUserIdentity(request: JsonObject): { externalId: string } | { internalId: string } {
  const hasExternalId = hasField(request, 'externalId');
  const hasInternalId = hasField(request, 'internalId');
  if (hasExternalId && hasInternalId) refuse('internalId', 'exactly-one', 'pass exactly one of externalId and internalId, not both');
  if (!hasExternalId && !hasInternalId)
    refuse('externalId', 'exactly-one', 'pass exactly one of externalId (a user of your app) and internalId (an existing platform user)');
  if (hasInternalId) {
    const internalId = requireName(request.internalId, 'internalId');
    refuseExternalOnlyFields(request);
    return { internalId };
  }
  // The platform stores externalId trimmed and lowercased; sending it that way keeps ids comparable.
  return { externalId: requireName(request.externalId, 'externalId').trim().toLowerCase() };
}

function refuseExternalOnlyFields(request: JsonObject): void {
  for (const key of EXTERNAL_ONLY_FIELDS) {
    if (!hasField(request, key)) continue;
    if (key === 'email') refuse(key, 'only-with-externalId', 'email is only allowed with externalId');
    refuse(key, 'not-with-internalId', `${key} is not allowed with internalId: the internal user's own permissions apply (rule 1)`);
  }
}

function readEmail(value: unknown): string {
  const email = requireString(value, 'email');
  if (!EMAIL_PATTERN.test(email)) refuse('email', 'format', 'email must be an e-mail address like "jane@example.com"');
  return email;
}

function isAbsoluteHttpUrl(text: string): boolean {
  if (!ABSOLUTE_HTTP_URL.test(text)) return false;
  try {
    return new URL(text).hostname !== '';
  } catch {
    return false;
  }
}

/** Rule 2: the profile shown in the embed; `picture` an absolute http(s) URL. */
function readUserProfile(value: unknown): JsonObject {
  const given = requireObject(value, 'userProfile');
  refuseUnknownKeys(given, 'userProfile', PROFILE_FIELDS);
  const profile: JsonObject = {};
  copyOptionalStrings(given, 'userProfile', PROFILE_FIELDS, profile);
  const picture = profile.picture as string | undefined;
  if (picture !== undefined && !isAbsoluteHttpUrl(picture))
    refuse(
      'userProfile.picture',
      'absolute-http-url',
      `userProfile.picture must be an absolute http:// or https:// URL (rule 2), got ${JSON.stringify(picture.slice(0, 60))}`,
    );
  return profile;
}

function readEmbedTenantName(value: unknown): string {
  const name = requireString(value, 'embedTenantName');
  if (name.length < TENANT_NAME_MIN_LENGTH || name.length > TENANT_NAME_MAX_LENGTH)
    refuse(
      'embedTenantName',
      'length',
      `embedTenantName must be ${TENANT_NAME_MIN_LENGTH} to ${TENANT_NAME_MAX_LENGTH} characters long, got ${name.length}`,
    );
  if (!TENANT_NAME_PATTERN.test(name))
    refuse(
      'embedTenantName',
      'pattern',
      `embedTenantName may hold only lowercase a-z, 0-9 and "-", must start with a letter and end with a letter or digit, got ${JSON.stringify(name)}`,
    );
  return name;
}

function readCreatorMode(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  return refuse('creatorMode', 'type', `creatorMode must be a boolean, got ${describeValue(value)}`);
}

/**
 * Rule 6: definitions need creator mode and an embed tenant; each item is read by `readItem`,
 * and names are unique within the list.
 */
function readDefinitions(
  request: JsonObject,
  field: 'groupDefinitions' | 'userAttributeDefinitions',
  ruleReference: string,
  readItem: (item: JsonObject, path: string) => JsonObject,
): JsonObject[] {
  const list = requireArray(request[field], field);
  if (request.creatorMode !== true) refuse(field, 'requires-creatorMode', `${field} requires creatorMode: true (rule 6)`);
  if (!hasField(request, 'embedTenantName')) refuse(field, 'requires-embedTenantName', `${field} requires an embedTenantName (rule 6)`);
  const definitions = list.map((item, index) => {
    const path = `${field}[${index}]`;
    return readItem(requireObject(item, path), path);
  });
  refuseDuplicateNames(
    definitions.map((definition) => definition.name as string),
    field,
    ruleReference,
  );
  return definitions;
}

/** Rule 7: a group definition. */
function readGroupDefinition(item: JsonObject, path: string): JsonObject {
  refuseUnknownKeys(item, path, GROUP_DEFINITION_FIELDS);
  const definition: JsonObject = { name: requireName(item.name, `${path}.name`) };
  copyOptionalStrings(item, path, ['description'], definition);
  return definition;
}

/** Rule 8: an attribute definition, whose `type` is one of {@link USER_ATTRIBUTE_TYPES}. */
function readAttributeDefinition(item: JsonObject, path: string): JsonObject {
  refuseUnknownKeys(item, path, ATTRIBUTE_DEFINITION_FIELDS);
  const definition: JsonObject = { name: requireName(item.name, `${path}.name`) };
  const allowedTypes = USER_ATTRIBUTE_TYPES.join(', ');
  if (!hasField(item, 'type')) refuse(`${path}.type`, 'required', `${path}.type is required: one of ${allowedTypes}`);
  if (!(USER_ATTRIBUTE_TYPES as readonly unknown[]).includes(item.type))
    refuse(`${path}.type`, 'allowed-values', `${path}.type must be one of ${allowedTypes} (rule 8), got ${JSON.stringify(item.type)}`);
  definition.type = item.type;
  copyOptionalStrings(item, path, ATTRIBUTE_DEFINITION_TEXT_FIELDS, definition);
  return definition;
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isStringList(value: unknown[]): value is string[] {
  return value.every((item) => typeof item === 'string');
}

/** Rule 3: a string, a finite number, a list of either (not mixed), or `null` to clear the value. */
function readAttributeValue(value: unknown, field: string): AttributeValue {
  if (value === undefined) refuse(field, 'required', `${field} is required (use null to clear a value)`);
  if (value === null || typeof value === 'string') return value;
  // (`+ 0` makes -0 the 0 that JSON sends: the copy is the request as the platform gets it.)
  if (isFiniteNumber(value)) return value + 0;
  // (Array.from: a hole is `undefined` here, refused, not skipped.)
  if (Array.isArray(value) && isStringList(Array.from(value))) return [...value];
  if (Array.isArray(value) && Array.from(value).every(isFiniteNumber)) return value.map((number) => number + 0);
  const got = Array.isArray(value) ? 'a mixed or invalid array' : describeValue(value);
  return refuse(
    field,
    'type',
    `${field} must be a string, a finite number, an array of strings, an array of numbers, or null (rule 3), got ${got}`,
  );
}

/** Rule 3: attribute values, with unique names. */
function readUserAttributes(value: unknown): { name: string; value: AttributeValue }[] {
  const attributes = requireArray(value, 'userAttributes').map((item, index) => {
    const path = `userAttributes[${index}]`;
    const attribute = requireObject(item, path);
    refuseUnknownKeys(attribute, path, USER_ATTRIBUTE_FIELDS);
    return { name: requireName(attribute.name, `${path}.name`), value: readAttributeValue(attribute.value, `${path}.value`) };
  });
  refuseDuplicateNames(
    attributes.map((attribute) => attribute.name),
    'userAttributes',
    'rule 3',
  );
  return attributes;
}

/** Rule 5: group names. */
function readGroups(value: unknown): string[] {
  return requireArray(value, 'groups').map((group, index) => requireName(group, `groups[${index}]`));
}

/**
 * An object field as the platform gets it: the copy its JSON makes. What JSON cannot carry is
 * refused (cycles, BigInt, an object whose JSON is not an object, such as a Date); the rest is
 * what is sent (`undefined` and functions dropped, NaN and Infinity null), so that the request
 * validated is the request sent.
 */
function jsonObjectCopy(value: JsonObject, field: string): JsonObject {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {}
  if (json === undefined) refuse(field, 'json', `${field} must be JSON-serializable (no cycles or BigInt)`);
  const copy: unknown = JSON.parse(json);
  if (!isPlainObject(copy)) refuse(field, 'json', `${field} must be a JSON object, got ${describeValue(copy)} once serialized`);
  return copy;
}

/** A custom security context: any JSON object, sent as a deep copy. */
function readSecurityContext(value: unknown): JsonObject {
  return jsonObjectCopy(requireObject(value, 'securityContext'), 'securityContext');
}

/** Rule 9: per-session overrides. Settings grow with the platform: unknown keys pass through, as JSON sends them. */
function readSettings(value: unknown): JsonObject {
  const settings = requireObject(value, 'settings');
  if (hasField(settings, 'showDashboardChat') && typeof settings.showDashboardChat !== 'boolean') {
    const got = JSON.stringify(settings.showDashboardChat) ?? describeValue(settings.showDashboardChat);
    refuse('settings.showDashboardChat', 'type', `settings.showDashboardChat must be true, false or omitted (rule 9), got ${got}`);
  }
  return jsonObjectCopy(settings, 'settings');
}

/** Every field's normalized value, in the platform's order of checks; `undefined` for a field left out. */
function checkRequest(input: unknown) {
  const request = requireRequestObject(input);
  refuseUnknownFields(request);
  const optional = <T>(key: string, read: (value: unknown) => T): T | undefined =>
    hasField(request, key) ? read(request[key]) : undefined;
  return {
    deploymentId: readDeploymentId(request),
    identity: readUserIdentity(request),
    email: optional('email', readEmail),
    userProfile: optional('userProfile', readUserProfile),
    embedTenantName: optional('embedTenantName', readEmbedTenantName),
    creatorMode: optional('creatorMode', readCreatorMode),
    // Definitions first: the platform validates them before groups and attribute values (rule 6).
    groupDefinitions: optional('groupDefinitions', () => readDefinitions(request, 'groupDefinitions', 'rule 7', readGroupDefinition)),
    userAttributeDefinitions: optional('userAttributeDefinitions', () =>
      readDefinitions(request, 'userAttributeDefinitions', 'rule 8', readAttributeDefinition),
    ),
    userAttributes: optional('userAttributes', readUserAttributes),
    groups: optional('groups', readGroups),
    securityContext: optional('securityContext', readSecurityContext),
    settings: optional('settings', readSettings),
  };
}

// ---------------------------------------------------------------------------------------------
// The commit stage: the request as it is sent, from fields that all passed

function buildRequest(checked: ReturnType<typeof checkRequest>): GenerateSessionRequest {
  const { deploymentId, identity, ...optionalFields } = checked;
  const request: JsonObject = { deploymentId, ...identity };
  for (const [key, value] of Object.entries(optionalFields)) if (value !== undefined) request[key] = value;
  return request as unknown as GenerateSessionRequest;
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
 * lowercased as the platform stores it, `undefined` fields dropped, `settings` and
 * `securityContext` as their JSON holds them (one that JSON cannot carry is refused).
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
    return { ok: true, request: buildRequest(checkRequest(input)) };
  } catch (error) {
    if (error instanceof BrokenRule) return { ok: false, field: error.field, rule: error.rule, message: error.message };
    return {
      ok: false,
      field: '(request)',
      rule: 'readable',
      message: 'the request could not be read as plain JSON data (a getter or proxy threw)',
    };
  }
}
