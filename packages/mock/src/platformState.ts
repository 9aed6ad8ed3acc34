import { randomBytes } from 'node:crypto';
import { API_KEY_MIN_LENGTH, validateSessionRequest, type GenerateSessionRequest } from '@platform-embed/server';
import { MockPlatformError, MockPlatformErrorCodes } from './mockPlatformError';

/** Attribute types of the platform (the tenant-wide catalog also knows `boolean`). */
export type MockAttributeType = 'string' | 'number' | 'boolean' | 'string_array' | 'number_array';

/** A user attribute definition in a catalog (tenant-wide or an embed tenant's scope). */
export interface MockAttributeDefinition {
  /** Name referenced by `userAttributes[].name`. */
  name: string;
  /** Type the values must have. */
  type: MockAttributeType;
  /** Shown name. */
  displayName?: string;
  /** Default value. */
  defaultValue?: string;
  /** Description. */
  description?: string;
}

/** A group in a catalog (tenant-wide or an embed tenant's scope). */
export interface MockGroup {
  /** Name referenced by `groups`. */
  name: string;
  /** Description. */
  description?: string;
}

/** An embed tenant that exists before the first request, with its scoped catalogs (creator mode). */
export interface MockEmbedTenant {
  /** The `embedTenantName`. */
  name: string;
  /** Attribute definitions of its scope. @default [] */
  userAttributes?: MockAttributeDefinition[];
  /** Groups of its scope (names or objects). @default [] */
  groups?: (string | MockGroup)[];
}

/** An API key accepted by generate-session. */
export interface MockApiKey {
  /** The key, sent as `Authorization: Api-Key <key>`. */
  key: string;
  /** Deployments the key is scoped to (others answer 403). @default all deployments */
  deployments?: number[];
}

/** The API key a mock platform accepts when none is configured. */
export const DEFAULT_API_KEY = 'mock-platform-api-key';

/** The tenant state generate-session works on. */
export interface PlatformStateOptions {
  /**
   * Accepted API keys, each at least 16 characters (`@platform-embed/server` refuses shorter ones).
   * @default [{ key: 'mock-platform-api-key' }]
   */
  apiKeys?: (string | MockApiKey)[];
  /** Existing deployment ids; another `deploymentId` answers 404. */
  deployments: number[];
  /** The `useCreatorMode` tenant flag; without it `creatorMode: true` answers 403. @default true */
  useCreatorMode?: boolean;
  /** Tenant-wide attribute definitions. @default [] */
  userAttributes?: MockAttributeDefinition[];
  /** Tenant-wide groups (names or objects). @default [] */
  groups?: (string | MockGroup)[];
  /** Embed tenants that exist from the start. Any other valid name is created on first use. @default [] */
  embedTenants?: MockEmbedTenant[];
  /** Usernames of existing internal users (for `internalId`). @default [] */
  internalUsers?: string[];
  /** How long a session stays valid, in milliseconds. @default 300000 */
  sessionTtlMs?: number;
  /** External users the account may have; a request for a new one beyond it answers 403. @default 10000 */
  maxExternalUsers?: number;
  /** The clock, for tests of expiry. @default Date.now */
  now?: () => number;
}

/** An attribute value as stored: `string`, `number`, or arrays of them. */
export type MockAttributeValue = string | number | boolean | string[] | number[];

/** A stored external user, as the test API returns it (a copy). */
export interface ExternalUserSnapshot {
  /** Trimmed and lowercased. */
  externalId: string;
  /** The e-mail of the last request that sent one. */
  email?: string;
  /** The stored profile (rule 2: sending it overwrites, omitting keeps). */
  userProfile: { displayName?: string; picture?: string };
  /** The embed tenant of the user's last session, `null` for the account itself. */
  embedTenant: string | null;
  /** Stored values by attribute name, per scope: `''` is the tenant-wide catalog, else the embed tenant's name. */
  attributes: Record<string, Record<string, MockAttributeValue>>;
  /** Group memberships per scope, as names (`''` is tenant-wide). */
  groups: Record<string, string[]>;
}

/** A session, as the test API returns it. */
export interface SessionSnapshot {
  /** The id generate-session answered (secret in a real app: never log it). */
  sessionId: string;
  /** The deployment it grants. */
  deploymentId: number;
  /** `external` with the normalized `externalId`, or `internal` with the username. */
  user: { kind: 'external'; externalId: string } | { kind: 'internal'; internalId: string };
  /** The `embedTenantName`, `null` for the account itself. */
  embedTenant: string | null;
  /** Whether it is a creator-mode session (needed by the app surface). */
  creatorMode: boolean;
  /** The per-session overrides (`showDashboardChat`). */
  settings: { showDashboardChat?: boolean };
  /** The custom security context, when one was sent. */
  securityContext?: Record<string, unknown>;
  /** When it was minted (epoch ms, from the `now` clock). */
  createdAt: number;
  /** When it stops being accepted. */
  expiresAt: number;
  /** When an embed page consumed it. */
  usedAt?: number;
}

/** What generate-session answers: the status and the JSON body. */
export type GenerateSessionResult =
  { status: 200; body: { sessionId: string } } | { status: number; body: { message: string; field?: string; rule?: string } };

/** Why an embed page could not use a session. */
export type ConsumeResult = { ok: true; session: SessionSnapshot } | { ok: false; reason: 'unknown' | 'used' | 'expired'; message: string };

interface Attr extends MockAttributeDefinition {
  id: number;
}
interface Group extends MockGroup {
  id: number;
}
interface Scope {
  name: string | null;
  attributes: Map<string, Attr>;
  groups: Map<string, Group>;
}
interface ExternalUser {
  externalId: string;
  email?: string;
  userProfile: { displayName?: string; picture?: string };
  embedTenant: string | null;
  values: Map<number, MockAttributeValue>;
  groups: Set<number>;
}

const API_KEY = /^Api-Key\s+(\S+)\s*$/i;
const refusal = (status: number, message: string, extra: { field?: string; rule?: string } = {}): GenerateSessionResult => ({
  status,
  body: { message, ...extra },
});

const isString = (value: unknown): value is string => typeof value === 'string';
const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isListOf = (value: unknown, isItem: (item: unknown) => boolean) => Array.isArray(value) && value.every(isItem);

/** Whether an attribute value has the attribute's type. */
function valueMatches(type: MockAttributeType, value: unknown): boolean {
  switch (type) {
    case 'string':
      return isString(value);
    case 'number':
      return isFiniteNumber(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'string_array':
      return isListOf(value, isString);
    default:
      // number_array
      return isListOf(value, isFiniteNumber);
  }
}

/** How a value is named in a message: `an array`, `null`, or `a <typeof>`. */
function describeValue(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return `a ${typeof value}`;
}

/** An empty catalog, for an embed tenant that does not exist yet. */
function emptyScope(name: string): Scope {
  return { name, attributes: new Map(), groups: new Map() };
}

/** What the check stage of an external user's request found, for the commit stage to store. */
interface ExternalUserPlan {
  /** Trimmed and lowercased. */
  externalId: string;
  /** The embed tenant of the session, `null` for the account itself. */
  embedTenant: string | null;
  /** The user, when it exists already. */
  existingUser: ExternalUser | undefined;
}

/**
 * The platform's tenant state in memory and the stateful rules of generate-session. The
 * static rules are the server package's `validateSessionRequest`; everything that needs the
 * catalogs, users and keys is checked here, and nothing is stored unless the whole request passes.
 */
export class PlatformState {
  private readonly options: PlatformStateOptions;
  private readonly keys = new Map<string, MockApiKey>();
  private readonly now: () => number;
  private nextId = 1;
  private tenant!: Scope;
  private embedTenants!: Map<string, Scope>;
  private users!: Map<string, ExternalUser>;
  private sessions!: Map<string, SessionSnapshot>;

  constructor(options: PlatformStateOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
    for (const k of options.apiKeys ?? [DEFAULT_API_KEY]) {
      const entry = typeof k === 'string' ? { key: k } : k;
      if (!entry.key || /\s/.test(entry.key))
        throw new MockPlatformError(
          MockPlatformErrorCodes.InvalidOption,
          `apiKeys: ${JSON.stringify(entry.key)} is not a usable key (no spaces, not empty)`,
        );
      if (entry.key.length < API_KEY_MIN_LENGTH)
        throw new MockPlatformError(
          MockPlatformErrorCodes.InvalidOption,
          `apiKeys: ${JSON.stringify(entry.key)} is too short: a key needs at least ${API_KEY_MIN_LENGTH} characters, as @platform-embed/server refuses shorter ones`,
        );
      this.keys.set(entry.key, entry);
    }
    this.reset();
  }

  /** The first configured API key. */
  get apiKey(): string {
    return this.keys.keys().next().value!;
  }

  /** Session lifetime in milliseconds. */
  get sessionTtlMs(): number {
    return this.options.sessionTtlMs ?? 300_000;
  }

  /** Forgets users, sessions and catalog changes: back to the configured state. */
  reset(): void {
    const o = this.options;
    this.tenant = this.scope(null, o.userAttributes, o.groups);
    this.embedTenants = new Map((o.embedTenants ?? []).map((t) => [t.name, this.scope(t.name, t.userAttributes, t.groups)]));
    this.users = new Map();
    this.sessions = new Map();
  }

  private scope(name: string | null, attributes: MockAttributeDefinition[] = [], groups: (string | MockGroup)[] = []): Scope {
    return {
      name,
      attributes: new Map(attributes.map((a) => [a.name, { ...a, id: this.nextId++ }])),
      groups: new Map(groups.map((g) => (typeof g === 'string' ? { name: g } : g)).map((g) => [g.name, { ...g, id: this.nextId++ }])),
    };
  }

  /**
   * `POST /api/v1/embed/generate-session`: the `Authorization` header value and the parsed body.
   * Checks, in order: the key (401), the static rules (400), the key's scope (403), the
   * deployment (404), the creator-mode flag (403), then the stateful rules (400) and the
   * external-user limit (403). Nothing is stored unless every check passes: the check stage
   * only reads, the commit stage only writes.
   */
  generateSession(authorization: string | undefined, body: unknown): GenerateSessionResult {
    const key = this.authenticate(authorization);
    if ('status' in key) return key;
    const checked = validateSessionRequest(body);
    if (!checked.ok) return refusal(400, checked.message, { field: checked.field, rule: checked.rule });
    const request = checked.request;
    const accessRefusal = this.checkAccess(key, request);
    if (accessRefusal) return accessRefusal;
    const embedTenant = request.embedTenantName ?? null;

    if (request.internalId !== undefined) {
      if (!(this.options.internalUsers ?? []).includes(request.internalId))
        return refusal(400, `Internal user "${request.internalId}" not found`, { field: 'internalId' });
      return this.mint(request, { kind: 'internal', internalId: request.internalId }, embedTenant);
    }

    const plan = this.checkExternalUser(request, embedTenant);
    if ('status' in plan) return plan;
    this.commitExternalUser(request, plan);
    return this.mint(request, { kind: 'external', externalId: plan.externalId }, embedTenant);
  }

  /** The key's deployment scope (rule 10), the deployment, and the creator-mode tenant flag. */
  private checkAccess(key: MockApiKey, request: GenerateSessionRequest): GenerateSessionResult | undefined {
    const { deploymentId } = request;
    if (key.deployments && !key.deployments.includes(deploymentId))
      return refusal(403, `This API key is not authorized for deployment ${deploymentId}`);
    if (!this.options.deployments.includes(deploymentId)) return refusal(404, `Deployment ${deploymentId} not found`);
    if (request.creatorMode && this.options.useCreatorMode === false)
      return refusal(403, 'Creator mode is not enabled for this account (tenant flag useCreatorMode)');
    return undefined;
  }

  /**
   * The catalog an external user's names resolve against, as it is now: the embed tenant's
   * in creator mode (empty when it does not exist yet), else the tenant-wide one (rules 4, 5).
   */
  private currentScope(request: GenerateSessionRequest, embedTenant: string | null): Scope {
    if (!request.creatorMode) return this.tenant;
    return this.embedTenants.get(embedTenant ?? '') ?? emptyScope(embedTenant ?? '');
  }

  /** The check stage of an external user's request: the stateful rules, without storing anything. */
  private checkExternalUser(request: GenerateSessionRequest, embedTenant: string | null): ExternalUserPlan | GenerateSessionResult {
    const scope = this.currentScope(request, embedTenant);
    const definitions = request.userAttributeDefinitions ?? [];
    // Rule 6: definitions first, and all of them checked before anything is upserted (rule 8).
    for (const definition of definitions) {
      const stored = scope.attributes.get(definition.name);
      if (stored && stored.type !== definition.type)
        return refusal(
          400,
          `User attribute definition "${definition.name}": cannot change type from ${stored.type} to ${definition.type}`,
          {
            field: 'userAttributeDefinitions',
          },
        );
    }
    const attributeType = (name: string) =>
      scope.attributes.get(name)?.type ?? definitions.find((definition) => definition.name === name)?.type;
    const groupExists = (name: string) =>
      scope.groups.has(name) || (request.groupDefinitions ?? []).some((definition) => definition.name === name);

    const values = request.userAttributes ?? [];
    const missingAttributes = values.filter((attribute) => !attributeType(attribute.name)).map((attribute) => attribute.name);
    if (missingAttributes.length)
      return refusal(400, `User attributes not found: ${missingAttributes.join(', ')}`, { field: 'userAttributes' });
    for (const attribute of values) {
      const type = attributeType(attribute.name)!;
      if (attribute.value !== null && !valueMatches(type, attribute.value))
        return refusal(400, `User attribute "${attribute.name}" is of type ${type}, got ${describeValue(attribute.value)}`, {
          field: 'userAttributes',
        });
    }
    const missingGroups = (request.groups ?? []).filter((group) => !groupExists(group));
    if (missingGroups.length) return refusal(400, `Groups with names ${missingGroups.join(', ')} not found`, { field: 'groups' });

    const externalId = request.externalId!.trim().toLowerCase();
    const existingUser = this.users.get(externalId);
    const limit = this.options.maxExternalUsers ?? 10_000;
    if (!existingUser && this.users.size >= limit)
      return refusal(403, `External user limit reached: the account already has ${this.users.size} of ${limit} external users`);
    return { externalId, embedTenant, existingUser };
  }

  /** The commit stage of an external user's request, which passed every check: stores the catalogs and the user. */
  private commitExternalUser(request: GenerateSessionRequest, plan: ExternalUserPlan): void {
    const scope = this.scopeToWrite(request, plan.embedTenant);
    this.upsertAttributeDefinitions(scope, request.userAttributeDefinitions ?? []);
    this.upsertGroupDefinitions(scope, request.groupDefinitions ?? []);
    const user = plan.existingUser ?? this.createUser(plan.externalId, plan.embedTenant);
    user.embedTenant = plan.embedTenant;
    if (request.email !== undefined) user.email = request.email;
    // Rule 2: what is sent overwrites, what is omitted is kept.
    if (request.userProfile?.displayName !== undefined) user.userProfile.displayName = request.userProfile.displayName;
    if (request.userProfile?.picture !== undefined) user.userProfile.picture = request.userProfile.picture;
    for (const attribute of request.userAttributes ?? []) {
      const id = scope.attributes.get(attribute.name)!.id;
      if (attribute.value === null) user.values.delete(id);
      else user.values.set(id, attribute.value);
    }
    // Rule 5: omitted keeps the memberships, a list replaces them.
    if (request.groups) user.groups = new Set(request.groups.map((name) => scope.groups.get(name)!.id));
  }

  /** The scope the commit stage writes to, creating the named embed tenant on first use. */
  private scopeToWrite(request: GenerateSessionRequest, embedTenant: string | null): Scope {
    if (embedTenant !== null && !this.embedTenants.has(embedTenant)) this.embedTenants.set(embedTenant, this.scope(embedTenant));
    if (!request.creatorMode) return this.tenant;
    return this.embedTenants.get(embedTenant ?? '') ?? this.ensureDefaultScope();
  }

  /** Rule 8: a new name is added; an existing one gets the descriptive fields that were sent (its type never changes). */
  private upsertAttributeDefinitions(scope: Scope, definitions: readonly MockAttributeDefinition[]): void {
    for (const definition of definitions) {
      const stored = scope.attributes.get(definition.name);
      if (!stored) {
        scope.attributes.set(definition.name, { ...definition, id: this.nextId++ });
        continue;
      }
      for (const field of ['displayName', 'defaultValue', 'description'] as const) stored[field] = definition[field] ?? stored[field];
    }
  }

  /** Rule 7: a new name is added; an existing one gets the description that was sent. */
  private upsertGroupDefinitions(scope: Scope, definitions: readonly MockGroup[]): void {
    for (const definition of definitions) {
      const stored = scope.groups.get(definition.name);
      if (stored) stored.description = definition.description ?? stored.description;
      else scope.groups.set(definition.name, { ...definition, id: this.nextId++ });
    }
  }

  private createUser(externalId: string, embedTenant: string | null): ExternalUser {
    const user: ExternalUser = { externalId, userProfile: {}, embedTenant, values: new Map(), groups: new Set() };
    this.users.set(externalId, user);
    return user;
  }

  /** The API key of an `Authorization` header value, or the 401 answer. */
  authenticate(authorization: string | undefined): MockApiKey | GenerateSessionResult {
    const key = API_KEY.exec(authorization ?? '')?.[1];
    if (!key) return refusal(401, 'Missing or malformed credentials: send the header "Authorization: Api-Key <API_KEY>"');
    return this.keys.get(key) ?? refusal(401, 'Unknown API key');
  }

  private ensureDefaultScope(): Scope {
    // Creator mode without embedTenantName: the account's own embed scope, named ''.
    if (!this.embedTenants.has('')) this.embedTenants.set('', this.scope(''));
    return this.embedTenants.get('')!;
  }

  private mint(r: GenerateSessionRequest, user: SessionSnapshot['user'], embedTenant: string | null): GenerateSessionResult {
    const sessionId = randomBytes(24).toString('base64url');
    const createdAt = this.now();
    this.sessions.set(sessionId, {
      sessionId,
      deploymentId: r.deploymentId,
      user,
      embedTenant,
      creatorMode: r.creatorMode === true,
      settings: { ...r.settings },
      ...(r.securityContext ? { securityContext: structuredClone(r.securityContext) } : {}),
      createdAt,
      expiresAt: createdAt + this.sessionTtlMs,
    });
    return { status: 200, body: { sessionId } };
  }

  /** An embed page exchanges a session: valid once, before it expires. */
  consumeSession(sessionId: string): ConsumeResult {
    const s = this.sessions.get(sessionId);
    if (!s)
      return { ok: false, reason: 'unknown', message: 'Session not found: mint a session with generate-session for every iframe load' };
    if (s.usedAt !== undefined)
      return { ok: false, reason: 'used', message: 'Session already used: sessions are single-use, every iframe load needs a fresh one' };
    if (this.now() >= s.expiresAt)
      return {
        ok: false,
        reason: 'expired',
        message: `Session expired: sessions are valid for ${Math.round(this.sessionTtlMs / 1000)} seconds after generate-session`,
      };
    s.usedAt = this.now();
    return { ok: true, session: structuredClone(s) };
  }

  /** A copy of every session minted since the last reset, oldest first. */
  listSessions(): SessionSnapshot[] {
    return [...this.sessions.values()].map((s) => structuredClone(s));
  }

  /** Number of external users. */
  get externalUserCount(): number {
    return this.users.size;
  }

  /** A copy of a stored external user (the id is trimmed and lowercased first), or `undefined`. */
  externalUser(externalId: string): ExternalUserSnapshot | undefined {
    const u = this.users.get(externalId.trim().toLowerCase());
    if (!u) return undefined;
    const attributes: ExternalUserSnapshot['attributes'] = {};
    const groups: ExternalUserSnapshot['groups'] = {};
    for (const scope of [this.tenant, ...this.embedTenants.values()]) {
      const key = scope.name ?? '';
      for (const a of scope.attributes.values())
        if (u.values.has(a.id)) (attributes[key] ??= {})[a.name] = structuredClone(u.values.get(a.id)!);
      for (const g of scope.groups.values()) if (u.groups.has(g.id)) (groups[key] ??= []).push(g.name);
    }
    return {
      externalId: u.externalId,
      ...(u.email !== undefined ? { email: u.email } : {}),
      userProfile: { ...u.userProfile },
      embedTenant: u.embedTenant,
      attributes,
      groups,
    };
  }

  /** The attribute definitions and groups of a scope: `null` for tenant-wide, else an embed tenant's name. */
  catalog(embedTenant: string | null): { userAttributes: MockAttributeDefinition[]; groups: MockGroup[] } | undefined {
    const scope = embedTenant === null ? this.tenant : this.embedTenants.get(embedTenant);
    if (!scope) return undefined;
    const strip = <T extends { id: number }>({ id: _id, ...rest }: T) => rest;
    return { userAttributes: [...scope.attributes.values()].map(strip), groups: [...scope.groups.values()].map(strip) };
  }
}
