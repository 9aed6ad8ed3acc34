import type { Diagnostic } from './embedOptions';
import { sleep } from './timing';
import { redactSession } from './url';

/*
 * The page-wide record: the session ids used on the page, and the platform's last "wait"
 * (`Retry-After`). A session is single-use across all embeds of the page, so an id handed out
 * twice is refused before it reaches a frame; a rate-limited platform is asked by one call at a
 * time, after its wait. One record per page, shared by every copy and version of the SDK loaded
 * into it (an npm bundle beside the script tag, micro-frontends), behind a global symbol that
 * names its version. Any script may have written there (a future version, a frozen or hostile
 * value), so the record is checked on every read: one this copy cannot use is reported (the
 * `page-record` diagnostic) and this copy goes on with a record of its own; mounting never
 * breaks on it.
 *
 * Version 1, `{ version: 1, used }` at `platform-embed.sessions`, is what older copies read:
 * version 2 shares its Map (or gives it one), so older and newer copies refuse each other's ids.
 * A session also lives only 5 minutes, so ids older than 10 minutes are forgotten: memory stays
 * bounded on a page that reloads its embeds all day.
 */

/** The page-wide record, version 2. */
interface PageRecord {
  version: 2;
  /** Each id used on the page, with when (`performance.now()`, the page's monotonic clock): version 1's Map. */
  used: Map<string, number>;
  /** Until when (`Date.now()`) the platform asked the page not to ask for a session. */
  until: number;
  /** The end of the line of session calls held by a wait, which go one after another; `0` when none. */
  line: Promise<unknown> | 0;
}
type Page = Record<symbol, { version?: unknown; used?: unknown } | undefined>;

const V1 = /* @__PURE__ */ Symbol.for('platform-embed.sessions');
const V2 = /* @__PURE__ */ Symbol.for('platform-embed.sessions@2');
const FORGET_AFTER = 600000;
const created = (used: Map<string, number>): PageRecord => ({ version: 2, used, until: 0, line: 0 });
// This copy's own record (with version 1's ids, if it can), once the page's could not be used.
let own: PageRecord | undefined;

// Version 1's Map (created if there is none), so that older copies share the ids; a fresh one
// when something else holds that name.
const v1Ids = (page: Page): Map<string, number> => {
  try {
    const old = (page[V1] ??= { version: 1, used: new Map() });
    if (old.version === 1 && old.used instanceof Map) return old.used;
  } catch {}
  return new Map();
};

/**
 * The page's record, created at the first use (never at import: the package has no side effects).
 * @param report hears that the page's record cannot be used (this copy's own is returned)
 */
export function pageRecord(report?: (diagnostic: Diagnostic) => void): PageRecord {
  const page = globalThis as unknown as Page;
  try {
    const record = (page[V2] ??= created(v1Ids(page))) as PageRecord;
    // Read, and written back: a frozen record, a Proxy that throws or another shape fails here;
    // so does a wait no copy writes (NaN, or more than MAX_RETRY_AFTER ahead) or a `line` that is
    // not a Promise (a thenable may never settle, or throw).
    if (
      record.version === 2 &&
      record.used instanceof Map &&
      record.used.size >= 0 &&
      // eslint-disable-next-line no-self-assign -- the write is the probe
      typeof (record.until = record.until) == 'number' &&
      record.until - Date.now() <= 6e4 &&
      (record.line === 0 || record.line instanceof Promise)
    )
      return record;
  } catch {}
  report?.({ kind: 'page-record' });
  return (own ??= created(v1Ids(page)));
}

/**
 * Records `id` as used, after forgetting the expired ones.
 * @returns `false` when the id was used on this page already (it must not be loaded).
 */
export function claimSession(id: string, report?: (diagnostic: Diagnostic) => void): boolean {
  const ids = pageRecord(report).used;
  // A monotonic clock: a wall clock moved forward (sleep, NTP) must not forget ids early.
  const now = performance.now();
  // Oldest first (insertion order): stop at the first id still within its lifetime.
  for (const [old, at] of ids)
    if (now - at > FORGET_AFTER) ids.delete(old);
    else break;
  return !ids.has(id) && !!ids.set(id, now);
}

/** Replaces every session id used on this page, and `own` (an embed's current one, even once forgotten), with `[redacted]`. */
export function redactSessions(text: string, own?: string): string {
  for (const id of [own, ...pageRecord().used.keys()]) if (typeof id == 'string' && id) text = text.split(id).join('[redacted]');
  return redactSession(text);
}

/**
 * Calls `call` at once, or, while the page waits (see {@link waitPage}), when the wait is over,
 * after the calls that waited before it: one at a time, so the platform hears one call, not one per embed.
 */
export function afterWait<T>(call: () => Promise<T>): Promise<T> {
  const page = pageRecord();
  if (!page.line && page.until <= Date.now()) return call();
  // (The end is read again after each sleep: a later answer may have moved it.)
  const wait = (): unknown => page.until > Date.now() && sleep(page.until - Date.now()).then(wait);
  const run = Promise.resolve(page.line).then(wait).then(call);
  const line = (page.line = run.catch(() => {}));
  // The last call in line closes it, if the wait is over when it ends.
  line.then(() => page.line == line && page.until <= Date.now() && (page.line = 0));
  return run;
}

/**
 * The platform answered "wait `ms`": no session call leaves the page before then, and the calls
 * after it go one at a time until one finds the wait over. A later answer moves the end to what
 * it says, never earlier, and never by adding up.
 */
export function waitPage(ms: number): void {
  const page = pageRecord();
  page.until = Math.max(page.until, Date.now() + ms);
  page.line ||= Promise.resolve();
}
