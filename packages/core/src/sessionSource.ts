import { SESSION_TIMEOUT, type AnyOptions, type SessionResult } from './embedOptions';
import { EmbedError } from './errors';
import { isPlainObject } from './protocol';
import { claimSession, redactSessions } from './sessions';
import { clampTimeout, sleep } from './timing';

/*
 * The session source of one embed: where each load's single-use session id comes from. A
 * given id first (`initialSession` once, or the id passed to `reload()`), else the `session`
 * option: an id, or a function called once per load within `sessionTimeout`, which may return
 * the id, generate-session's `{ sessionId }` body, or its `fetch` Response as it is. Every id is
 * claimed page-wide before use (sessions.ts), so a used one is refused here, not by the platform.
 *
 * A failure a later call may cure (the function threw, timed out, or its response was a 5xx,
 * 429 or 408) is marked `renew`, with how long the route asked to wait (`Retry-After`, at most
 * MAX_RETRY_AFTER): the retry policy decides. After a route answered "wait", the calls of every
 * embed of the page to that route wait until then and go one at a time (the gate below): a
 * rate-limited platform sees one retry at a time from a page, not one per embed.
 */

/** A failure of the session source: `renew` when a later call may cure it, not before `wait` ms. */
export type SessionFailure = EmbedError & { renew?: boolean; wait?: number };

/** The longest `Retry-After` honoured, in ms: a route asking for longer is asked again after this. */
export const MAX_RETRY_AFTER = 60000;

const failure = (message: string, renew?: boolean, wait?: number, cause?: unknown): SessionFailure =>
  Object.assign(new EmbedError('session', message, { cause }), { renew, wait });

// Why a failure a fresh session would cure is not retried with a session id string.
export const renewHint = (options: AnyOptions): string =>
  __DEV__ && typeof options.session != 'function' ? '; a session id string cannot be renewed: pass session as a function' : '';

// One gate per route (its URL; the function itself when it returns no Response) that answered
// "wait": the calls that follow it run one after another, none before `until`.
const gates = new Map<unknown, { until: number; turn: Promise<unknown> }>();
const through = <T>(key: unknown, call: () => Promise<T>): Promise<T> => {
  const gate = gates.get(key);
  if (!gate) return call();
  const run = gate.turn.then(() => sleep(gate.until - Date.now())).then(call);
  const turn = (gate.turn = run.catch(() => {}));
  // The last call in line closes a gate whose time has passed.
  turn.then(() => gate.turn == turn && gate.until <= Date.now() && gates.delete(key));
  return run;
};

// `Retry-After` in seconds or as an HTTP date, in ms, bounded.
const retryAfter = (header: string | null) => {
  const ms = header == null ? 0 : +header >= 0 ? +header * 1000 : Date.parse(header) - Date.now() || 0;
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER);
};

// A Response from the session function: its `{ sessionId }` when 2xx, else a failure named by its status.
const readResponse = async (response: Response, key: unknown): Promise<unknown> => {
  const { status } = response;
  // (Development words only: a production build holds no text of them.)
  const routeName = () => `the session route${response.url && ' ' + response.url}`;
  if (response.ok)
    return response.json().catch((e: unknown) => {
      throw failure(
        __DEV__ ? `${routeName()} answered HTTP ${status} without JSON: answer { "sessionId": "..." }` : 'session JSON',
        false,
        0,
        e,
      );
    });
  const renew = status >= 500 || status == 429 || status == 408;
  const wait = retryAfter(response.headers.get('retry-after'));
  if (wait) {
    // Calls already in line read the gate's time when their turn comes: it is moved, not replaced.
    const gate = gates.get(key);
    if (gate) gate.until = Date.now() + wait;
    else gates.set(key, { until: Date.now() + wait, turn: Promise.resolve() });
  }
  // The route's own words, when it answered JSON `{ error, message }` (as createSessionHandler does).
  const said = await response.json().then(
    (body: { message?: unknown; error?: unknown } | null) => String(body?.message ?? body?.error ?? '').slice(0, 200),
    () => '',
  );
  let why = `session HTTP ${status}`;
  if (__DEV__) {
    why = `${routeName()} answered HTTP ${status}: `;
    if (status == 429) why += 'rate limited, tried again when it said';
    else if (renew) why += 'it could not mint a session (see its logs; the platform may be down), tried again';
    else
      why +=
        'it refused (not tried again: the same call would be refused); check that the viewer is signed in and allowed to see this embed';
  }
  throw failure(said ? `${why} (${said})` : why, renew, wait);
};

// Calls the `session` function within `ms`; its failures are renewable. `routed` learns the route
// that answered (its URL, else the function).
const callSession = async (
  source: Function,
  signal: AbortSignal,
  ms: number,
  redact: (text: string) => string,
  routed: (key: unknown) => void,
): Promise<unknown> => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let key: unknown = source;
  try {
    return await new Promise((resolve, reject) => {
      if (ms) timer = setTimeout(() => reject(failure(`the session function did not answer within ${ms} ms`, true)), ms);
      // A function that throws at once fails like one that rejects.
      new Promise<SessionResult>((r) => r(source({ signal })))
        .then((result) =>
          Object.prototype.toString.call(result) == '[object Response]'
            ? readResponse(result as Response, (key = (result as Response).url))
            : result,
        )
        .then(resolve, (e: unknown) =>
          // What the function threw is renewable, unless it is our own verdict on its response.
          reject(
            e instanceof EmbedError
              ? Object.assign(e, { renew: (e as SessionFailure).renew ?? true })
              : failure(`session function failed: ${redact(String(e))}`, true, 0, e),
          ),
        );
    });
  } finally {
    clearTimeout(timer);
    routed(key);
  }
};

/** Creates the session source of one embed, reading its options through `options`. */
export function createSessionSource(options: () => AnyOptions) {
  // A session to use before calling the `session` function: `initialSession`, or the one given to reload().
  let given = options().initialSession;
  // Whether a used `given` id may be replaced by a fresh one: yes for initialSession (a restored page), not for reload(id).
  let replaceable = true;
  // The route of the last call, once it answered "wait": this embed's next call goes through its gate.
  let route: unknown;
  // This embed's current session id: redacted for the embed's whole life, even once the page forgot it.
  let current = '';

  const used = () =>
    failure(
      `session already used${__DEV__ ? `: sessions are single-use${renewHint(options()) || ', return a fresh one for every call'}` : ''}`,
    );
  const claim = (id: unknown) => {
    if (typeof id != 'string' || !id.trim()) return;
    if (!claimSession(id)) throw used();
    return (current = id);
  };

  return {
    /** The current session id, for redaction. */
    current: () => current,
    /** Uses `id` for the next load: `replace` when a used one may be replaced by a fresh one (initialSession). */
    give(id: string | undefined, replace: boolean) {
      given = id;
      replaceable = replace;
    },
    /**
     * This load's session id: the given one, else one from `session`; `undefined` in private mode.
     * @throws {SessionFailure} when none can be had.
     */
    async next(signal: AbortSignal): Promise<string | undefined> {
      const source = options().session;
      const id = given;
      given = undefined;
      if (id !== undefined) {
        if (claimSession(id)) return (current = id);
        // An initialSession already used on this page (a restored page) is replaced by a fresh one, if we can mint one.
        if (!replaceable || typeof source != 'function') throw used();
      }
      if (typeof source != 'function') return source === undefined ? source : (claim(source) ?? throwNone(source));
      // (A load superseded while it waited at the gate mints nothing.)
      const ms = clampTimeout(options().sessionTimeout ?? SESSION_TIMEOUT);
      const redact = (text: string) => redactSessions(text, current);
      // (A route that answered "wait" gates this embed's next call too.)
      const routed = (key: unknown) => (route = gates.has(key) ? key : undefined);
      const result = await through(route, () =>
        signal.aborted ? Promise.reject(signal.reason) : callSession(source, signal, ms, redact, routed),
      );
      return claim(isPlainObject(result) ? result.sessionId : result) ?? throwNone(result);
    },
  };
}

// Not renewable: no usable id is the host's bug, which another call would repeat.
const throwNone = (result: unknown): never => {
  throw failure(
    __DEV__
      ? `no session id: ${
          isPlainObject(result)
            ? `the session function returned an object without "sessionId" (keys: ${Object.keys(result).join(', ') || 'none'})`
            : `the session function returned ${typeof result == 'string' ? 'an empty string' : String(result)}`
        }: return generate-session's { sessionId } body, its fetch Response, or the id`
      : 'no session id',
  );
};
