/*
 * The message protocol's catalog, declared once as data: the envelope's constants, the event
 * catalog (embed to host) and the action catalog (host to embed). A field descriptor is either
 * an array of allowed literal values (an enum), or a kind name of the rule language (rules.ts),
 * with alternatives joined by `|` and a trailing `?` for an optional field (protocol.ts checks
 * every descriptor against that language when it compiles). Types, validators, action builders
 * and helpers, and the bindings' event props and emits all derive from these two tables: adding
 * an event or an action is a one-entry change.
 */

/** The `source` field of every envelope, in both directions. */
export const SOURCE = 'platform-embed';
/** Prefix of every event type string (`platform:event:ready`, ...). */
export const EVENT_PREFIX = 'platform:event:';
/** Prefix of every action type string (`platform:action:refresh`, ...). */
export const ACTION_PREFIX = 'platform:action:';

/** The three embeddable surfaces. */
export const SURFACES = ['dashboard', 'app', 'chat'] as const;
/** An embed surface: `dashboard`, `app` or `chat`. */
export type Surface = (typeof SURFACES)[number];

/** The event catalog (embed to host), keyed by short event name. */
export const EVENT_SCHEMAS = {
  /** The embed has authenticated and mounted: the first event of every load. */
  ready: {
    /** The tenant the embed runs for, or `null` in private mode. */
    embedTenant: 'string|null',
    /** The deployment shown, or `null` in private mode. */
    deploymentId: 'number|null',
    /** `signed` with a session from generate-session, `private` when the viewer signed in on the platform. */
    mode: ['signed', 'private'],
    /** The surface that became ready. */
    surface: SURFACES,
    /** The public id of the dashboard (dashboard surface). */
    publicId: 'string?',
  },
  /** A surface is viewed: on load and on each in-embed navigation. */
  view: { surface: SURFACES, path: 'string', publicId: 'string?', title: 'string?' },
  /** The viewer navigated within the embed. */
  navigate: { path: 'string', previousPath: 'string?' },
  /** Every widget of a dashboard has rendered (later than `ready`). */
  'dashboard-loaded': { publicId: 'string?', widgetCount: 'integer>=0?', loadDurationMs: 'number>=0?' },
  /** The viewer exported data or an image. The exported rows are never included. */
  download: {
    format: ['csv', 'xlsx', 'png', 'pdf'],
    target: ['widget', 'dashboard'],
    widgetId: 'string?',
    title: 'string?',
    rowCount: 'integer>=0?',
  },
  /** The viewer drilled into a measure. */
  drilldown: { member: 'string', value: 'any?', widgetId: 'string?' },
  /** The viewer ran an AI (natural-language) query. */
  'ai-query': {
    query: 'string',
    status: ['submitted', 'completed', 'error'],
    chatId: 'string?',
    agentId: 'string?',
  },
  /** The embed surfaced an error; `fatal` when the whole surface went down. */
  error: { message: 'string', name: 'string?', context: 'string?', fatal: 'boolean?' },
} as const;

/** The action catalog (host to embed), keyed by short action name. `'*'` marks an open object. */
export const ACTION_SCHEMAS = {
  /** Switches the color scheme (`auto` follows the viewer's OS). */
  'set-color-scheme': { scheme: ['light', 'dark', 'auto'] },
  /** Applies a brand theme; keys other than the common ones are passed through. */
  'set-theme': { primaryColor: 'string?', borderRadius: 'number|string?', font: 'string?', '*': 'any' },
  /** Switches the UI language: a full code, short code or regional variant. */
  'set-locale': { locale: 'non-empty string' },
  /** Pushes a filter into a dashboard. */
  'set-filter': { filterUrlParameter: 'f_<view>.<dimension>=<JSON>' },
  /** Navigates to an in-embed path. */
  navigate: { path: 'string' },
  /** Re-runs the embed's queries. */
  refresh: {},
} as const;
