/**
 * A user attribute value for row-level security (generate-session rule 3): a string, a number,
 * an array of strings, an array of numbers, or `null` to clear the stored value. Its type must
 * match the attribute definition's type.
 */
export interface UserAttributeValue {
  /** Name of an existing attribute definition (tenant-wide, or the embed tenant's in creator mode). */
  name: string;
  /** The value; `null` clears it. */
  value: string | number | string[] | number[] | null;
}

/** A group upserted into the embed tenant scope before memberships are assigned (rules 6, 7). */
export interface GroupDefinition {
  /** Group name; an existing group with that name is reused. */
  name: string;
  /** Updated when supplied and different; never cleared. */
  description?: string;
}

/** The types an attribute definition can have (rule 8). */
export const USER_ATTRIBUTE_TYPES = ['string', 'number', 'string_array', 'number_array'] as const;

/** One of {@link USER_ATTRIBUTE_TYPES}. */
export type UserAttributeType = (typeof USER_ATTRIBUTE_TYPES)[number];

/** An attribute definition upserted into the embed tenant scope before values are applied (rules 6, 8). */
export interface UserAttributeDefinition {
  /** Attribute name. */
  name: string;
  /** Immutable once stored: a different type fails the request with `cannot change type`. */
  type: UserAttributeType;
  /** Updated when supplied and different. */
  displayName?: string;
  /** Updated when supplied and different. */
  defaultValue?: string;
  /** Updated when supplied and different. */
  description?: string;
}

/** Profile of the external user, stored per `externalId` (rule 2). An omitted property keeps its stored value. */
export interface UserProfile {
  /** Name shown for the user. */
  displayName?: string;
  /** Absolute `http://` or `https://` URL of an image (PNG, JPEG, GIF, WebP, SVG). */
  picture?: string;
}

/** Per-session embed overrides. */
export interface SessionSettings {
  /**
   * Shows (`true`) or hides (`false`) the AI chat on embedded published dashboards for this
   * session (rule 9).
   * @default inherits the account-wide toggle
   */
  showDashboardChat?: boolean;
}

/** Fields any session request may carry. */
export interface SessionRequestCommon {
  /** The deployment the session grants access to. */
  deploymentId: number;
  /**
   * Embed tenant: lowercase, 5 to 36 characters of `a-z`, `0-9`, `-`, starting with a letter
   * and ending with a letter or digit.
   * @default the current tenant
   */
  embedTenantName?: string;
  /** Mints a creator-mode session (needs the `useCreatorMode` tenant flag). */
  creatorMode?: boolean;
  /** Per-session embed overrides. */
  settings?: SessionSettings;
}

/** A session for an external user (provisioned on the fly from `externalId`). */
export interface ExternalUserSessionRequest extends SessionRequestCommon {
  /** Stable id of the user in the host app; the platform stores it trimmed and lowercased. */
  externalId: string;
  internalId?: never;
  /** E-mail attached to the provisioned external user. */
  email?: string;
  /** Profile shown in the embed (rule 2). */
  userProfile?: UserProfile;
  /** Row-level-security values (rule 3). */
  userAttributes?: UserAttributeValue[];
  /** Group names: omitted keeps memberships, `[]` clears them, a list replaces them (rule 5). */
  groups?: string[];
  /** Needs `creatorMode: true` and `embedTenantName` (rules 6, 8). */
  userAttributeDefinitions?: UserAttributeDefinition[];
  /** Needs `creatorMode: true` and `embedTenantName` (rules 6, 7). */
  groupDefinitions?: GroupDefinition[];
  /** Custom security context passed to queries. */
  securityContext?: Record<string, unknown>;
}

/** A session for an existing internal user, whose own permissions apply (rule 1). */
export interface InternalUserSessionRequest extends SessionRequestCommon {
  /** Username of an existing internal user. */
  internalId: string;
  externalId?: never;
  email?: never;
  userProfile?: never;
  userAttributes?: never;
  groups?: never;
  userAttributeDefinitions?: never;
  groupDefinitions?: never;
  securityContext?: never;
}

/**
 * The body of `POST {base_url}/api/v1/embed/generate-session`: exactly one of `externalId`
 * and `internalId`, and with `internalId` none of the fields that would change the user.
 *
 * @example
 * ```ts
 * const request: GenerateSessionRequest = {
 *   deploymentId: 1,
 *   externalId: user.id,
 *   userAttributes: [{ name: 'region', value: user.region }],
 * };
 * ```
 */
export type GenerateSessionRequest = ExternalUserSessionRequest | InternalUserSessionRequest;

/** The body generate-session answers with. The session is single-use and valid for 5 minutes. */
export interface GenerateSessionResponse {
  /** Goes into the embed URL (`?session=` or, for chat, `?sessionId=`). */
  sessionId: string;
}

/** What {@link validateSessionRequest} returns: a normalized copy of the request, or the first problem. */
export type SessionRequestValidation =
  | { ok: true; request: GenerateSessionRequest }
  | {
      ok: false;
      /** Path of the offending field, e.g. `userAttributes[1].name`; `(request)` for the body itself. */
      field: string;
      /** Short name of the broken rule, e.g. `required`, `pattern`, `not-with-internalId`. */
      rule: string;
      /** What is wrong and how to fix it. */
      message: string;
    };
