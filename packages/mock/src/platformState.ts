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
const fail = (status: number, message: string, extra: { field?: string; rule?: string } = {}): GenerateSessionResult => ({
  status,
  body: { message, ...extra },
});

function valueMatches(type: MockAttributeType, v: unknown): boolean {
  const all = (check: (x: unknown) => boolean) => Array.isArray(v) && v.every(check);
  const str = (x: unknown) => typeof x === 'string';
  const num = (x: unknown) => typeof x === 'number' && Number.isFinite(x);
  return type === 'string'
    ? str(v)
    : type === 'number'
      ? num(v)
      : type === 'boolean'
        ? typeof v === 'boolean'
        : type === 'string_array'
          ? all(str)
          : all(num);
}

const describe = (v: unknown) => (Array.isArray(v) ? 'an array' : v === null ? 'null' : `a ${typeof v}`);

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
   * external-user limit (403).
   */
  generateSession(authorization: string | undefined, body: unknown): GenerateSessionResult {
    const entry = this.authenticate(authorization);
    if ('status' in entry) return entry;
    const checked = validateSessionRequest(body);
    if (!checked.ok) return fail(400, checked.message, { field: checked.field, rule: checked.rule });
    const r: GenerateSessionRequest = checked.request;
    if (entry.deployments && !entry.deployments.includes(r.deploymentId))
      return fail(403, `This API key is not authorized for deployment ${r.deploymentId}`);
    if (!this.options.deployments.includes(r.deploymentId)) return fail(404, `Deployment ${r.deploymentId} not found`);
    if (r.creatorMode && this.options.useCreatorMode === false)
      return fail(403, 'Creator mode is not enabled for this account (tenant flag useCreatorMode)');
    const embedTenant = r.embedTenantName ?? null;

    if (r.internalId !== undefined) {
      if (!(this.options.internalUsers ?? []).includes(r.internalId))
        return fail(400, `Internal user "${r.internalId}" not found`, { field: 'internalId' });
      return this.mint(r, { kind: 'internal', internalId: r.internalId }, embedTenant);
    }

    // Creator mode resolves against the embed tenant's scope (which may not exist yet: empty).
    const existingScope = r.creatorMode ? this.embedTenants.get(embedTenant ?? '') : this.tenant;
    const scope = existingScope ?? { name: embedTenant ?? '', attributes: new Map<string, Attr>(), groups: new Map<string, Group>() };

    // Rule 6: definitions first, and all of them checked before anything is upserted (rule 8).
    for (const d of r.userAttributeDefinitions ?? []) {
      const stored = scope.attributes.get(d.name);
      if (stored && stored.type !== d.type)
        return fail(400, `User attribute definition "${d.name}": cannot change type from ${stored.type} to ${d.type}`, {
          field: 'userAttributeDefinitions',
        });
    }
    const attrType = (name: string) => scope.attributes.get(name)?.type ?? r.userAttributeDefinitions?.find((d) => d.name === name)?.type;
    const groupKnown = (name: string) => scope.groups.has(name) || !!r.groupDefinitions?.some((g) => g.name === name);

    const values = r.userAttributes ?? [];
    const missingAttributes = values.filter((a) => !attrType(a.name)).map((a) => a.name);
    if (missingAttributes.length)
      return fail(400, `User attributes not found: ${missingAttributes.join(', ')}`, { field: 'userAttributes' });
    for (const a of values) {
      const type = attrType(a.name)!;
      if (a.value !== null && !valueMatches(type, a.value))
        return fail(400, `User attribute "${a.name}" is of type ${type}, got ${describe(a.value)}`, { field: 'userAttributes' });
    }
    const missingGroups = (r.groups ?? []).filter((g) => !groupKnown(g));
    if (missingGroups.length) return fail(400, `Groups with names ${missingGroups.join(', ')} not found`, { field: 'groups' });

    const externalId = r.externalId.trim().toLowerCase();
    let user = this.users.get(externalId);
    const max = this.options.maxExternalUsers ?? 10_000;
    if (!user && this.users.size >= max)
      return fail(403, `External user limit reached: the account already has ${this.users.size} of ${max} external users`);

    // Everything passed: store.
    if (embedTenant !== null && !this.embedTenants.has(embedTenant)) this.embedTenants.set(embedTenant, this.scope(embedTenant));
    const target = r.creatorMode ? (this.embedTenants.get(embedTenant ?? '') ?? this.ensureDefaultScope()) : this.tenant;
    for (const d of r.userAttributeDefinitions ?? []) {
      const stored = target.attributes.get(d.name);
      if (stored) for (const f of ['displayName', 'defaultValue', 'description'] as const) stored[f] = d[f] ?? stored[f];
      else target.attributes.set(d.name, { ...d, id: this.nextId++ });
    }
    for (const g of r.groupDefinitions ?? []) {
      const stored = target.groups.get(g.name);
      if (stored) stored.description = g.description ?? stored.description;
      else target.groups.set(g.name, { ...g, id: this.nextId++ });
    }
    if (!user) this.users.set(externalId, (user = { externalId, userProfile: {}, embedTenant, values: new Map(), groups: new Set() }));
    user.embedTenant = embedTenant;
    if (r.email !== undefined) user.email = r.email;
    if (r.userProfile) {
      if (r.userProfile.displayName !== undefined) user.userProfile.displayName = r.userProfile.displayName;
      if (r.userProfile.picture !== undefined) user.userProfile.picture = r.userProfile.picture;
    }
    for (const a of values) {
      const id = target.attributes.get(a.name)!.id;
      if (a.value === null) user.values.delete(id);
      else user.values.set(id, a.value);
    }
    if (r.groups) user.groups = new Set(r.groups.map((name) => target.groups.get(name)!.id));
    return this.mint(r, { kind: 'external', externalId }, embedTenant);
  }

  /** The API key of an `Authorization` header value, or the 401 answer. */
  authenticate(authorization: string | undefined): MockApiKey | GenerateSessionResult {
    const key = API_KEY.exec(authorization ?? '')?.[1];
    if (!key) return fail(401, 'Missing or malformed credentials: send the header "Authorization: Api-Key <API_KEY>"');
    return this.keys.get(key) ?? fail(401, 'Unknown API key');
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
