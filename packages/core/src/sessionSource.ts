import type { Controller } from './context';
import { SESSION_TIMEOUT, type AnyOptions, type SessionResult } from './embedOptions';
import { EmbedError, type SessionFailure } from './errors';
import { isPlainObject } from './rules';
import { afterWait, claimSession, redactSessions, waitPage } from './sessions';
import { clampTimeout } from './timing';

/*
 * The session source of one embed: where each load's single-use session id comes from. A
 * given id first (`initialSession` once, or the id passed to `reload()`), else the `session`
 * option: an id, or a function called once per load within `sessionTimeout`, which may return
 * the id, generate-session's `{ sessionId }` body, or its `fetch` Response as it is. Every id is
 * claimed page-wide before use (sessions.ts), so a used one is refused here, not by the platform;
 * so is one longer than MAX_SESSION_ID.
 *
 * The SDK owns the download it was given: it reads at most MAX_SESSION_BODY bytes of a Response
 * and cancels its body when the load is abandoned (timeout, destroy, a newer attempt: the signal
 * it passed aborts), even when the host's fetch ignored that signal.
 *
 * A failure a later call may cure (the function threw, timed out, or its response was a 5xx,
 * 429 or 408) is marked `renew`, with how long the route asked to wait (`Retry-After`, at most
 * MAX_RETRY_AFTER): the retry policy decides. That wait holds for the whole page (sessions.ts):
 * every session call of every embed and copy of the SDK waits for it, then they go one at a
 * time: a rate-limited platform sees one retry at a time from a page, not one per embed.
 */

/** The longest `Retry-After` honoured, in ms: a route asking for longer is asked again after this. */
export const MAX_RETRY_AFTER = 60000;

/** The longest session id accepted, in characters: a longer one is refused as a `session` error. */
export const MAX_SESSION_ID = 4096;

/** The most bytes read of a session route's answer (in at most 64 reads): a longer one is cancelled and refused. */
export const MAX_SESSION_BODY = 16384;

const failure = (message: string, renew?: boolean, wait?: number, cause?: unknown): SessionFailure =>
  Object.assign(new EmbedError('session', message, { cause }), { renew, wait });

// Why a failure a fresh session would cure is not retried with a session id string.
export const renewHint = (options: AnyOptions): string =>
  __DEV__ && typeof options.session != 'function' ? '; a session id string cannot be renewed: pass session as a function' : '';

// `Retry-After` as RFC 9110 has it, in ms, bounded: delta-seconds (digits only) or an HTTP date
// (IMF-fixdate, or the obsolete RFC 850 and asctime forms; asctime names no zone: GMT); else
// (`1e1`, `0x0A`, `2.5`, `-1`, words, no header: "null") no wait.
const HTTP_DATE = /^\w{3,9}, \d\d[ -]\w{3}[ -]\d{2,4} [\d:]{8} GMT$|^\w{3} \w{3} [ \d]\d [\d:]{8} \d{4}$/;
const retryAfter = (header: string | null) =>
  Math.min(
    Math.max(
      /^\d+$/.test(header!) ? +header! * 1000 : HTTP_DATE.test(header!) ? Date.parse(header!.replace(/\d$/, '$& GMT')) - Date.now() : 0,
      0,
    ),
    MAX_RETRY_AFTER,
  ) || 0;

// The body of a session Response as JSON, bounded (a huge or endless body, or one trickled a byte
// at a time, must not hold the page or its memory: at most MAX_SESSION_BODY bytes in 64 reads),
// and cancelled, with its download, when `signal` aborts. (No body, or one already read: a TypeError.)
const readJson = async <T>(response: Response, signal: AbortSignal): Promise<T> => {
  let reads = 0;
  let size = 0;
  let over: unknown;
  const bounded = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, next) {
      // (NaN, from a chunk that is not bytes, is past the bound too.)
      if (++reads > 64 || !((size += chunk.byteLength) <= MAX_SESSION_BODY))
        throw (over = failure(
          __DEV__
            ? `the session route answered more than ${MAX_SESSION_BODY} bytes: answer { "sessionId": "..." }`
            : 'session body too long',
          false,
        ));
      next.enqueue(chunk);
    },
  });
  // (Some browsers reject json() with an error of their own: the bound's is the one that says why.)
  return new Response(response.body!.pipeThrough(bounded, { signal })).json().catch((e) => Promise.reject(over ?? e));
};

// A Response from the session function: its `{ sessionId }` when 2xx, else a failure named by its status.
const readResponse = async (response: Response, signal: AbortSignal): Promise<unknown> => {
  const { status } = response;
  // (Development words only: a production build holds no text of them.)
  const routeName = () => `the session route${response.url && ' ' + response.url}`;
  if (response.ok)
    return readJson(response, signal).catch((e: unknown) => {
      throw e instanceof EmbedError
        ? e
        : failure(
            __DEV__ ? `${routeName()} answered HTTP ${status} without JSON: answer { "sessionId": "..." }` : 'session JSON',
            false,
            0,
            e,
          );
    });
  const renew = status >= 500 || status == 429 || status == 408;
  const wait = retryAfter(response.headers.get('retry-after'));
  if (wait) waitPage(wait);
  // The route's own words, when it answered JSON `{ error, message }` (as createSessionHandler does).
  const said = await readJson<{ message?: unknown; error?: unknown } | null>(response, signal).then(
    (body) => String(body?.message ?? body?.error ?? '').slice(0, 200),
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

// Calls the `session` function within `ms`; its failures are renewable (what it threw is quoted with
// every id of the page and `own`, the embed's current one, redacted).
const callSession = async (source: Function, signal: AbortSignal, ms: number, own: string): Promise<unknown> => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await new Promise((resolve, reject) => {
      if (ms)
        timer = setTimeout(
          () => reject(failure(__DEV__ ? `the session function did not answer within ${ms} ms` : `session timeout ${ms} ms`, true)),
          ms,
        );
      // A function that throws at once fails like one that rejects.
      new Promise<SessionResult>((r) => r(source({ signal })))
        .then((result) =>
          Object.prototype.toString.call(result) == '[object Response]' ? readResponse(result as Response, signal) : result,
        )
        .then(resolve, (e: unknown) => {
          let text: string;
          // A value with no string form (a null-prototype object) must still fail the call, not hang it.
          try {
            text = String(e);
          } catch {
            text = typeof e;
          }
          // What the function threw is renewable, unless it is our own verdict on its response.
          reject(
            e instanceof EmbedError
              ? Object.assign(e, { renew: (e as SessionFailure).renew ?? true })
              : failure(`session function failed: ${redactSessions(text, own)}`, true, 0, e),
          );
        });
    });
  } finally {
    clearTimeout(timer);
  }
};

/**
 * Gives the controller its session source: `_sessionId`, `_nextSession` and `_giveSession`. It
 * reads the `session`, `initialSession` and `sessionTimeout` options, and tells `_diagnose` that
 * the page-wide record could not be used (see sessions.ts).
 */
export function createSessionSource(c: Pick<Controller, '_options' | '_diagnose' | '_sessionId' | '_nextSession' | '_giveSession'>): void {
  // A session to use before calling the `session` function: `initialSession`, or the one given to reload().
  let given = c._options.initialSession;
  // Whether a used `given` id may be replaced by a fresh one: yes for initialSession (a restored page), not for reload(id).
  let replaceable = true;

  const used = () =>
    failure(
      `session already used${__DEV__ ? `: sessions are single-use${renewHint(c._options) || ', return a fresh one for every call'}` : ''}`,
    );
  // Not renewable: the same source would give it again. (Refused before anything copies or parses it.)
  const bounded = (id: string) => {
    if (id.length > MAX_SESSION_ID)
      throw failure(
        __DEV__ ? `the session id has ${id.length} characters, more than a session id has (${MAX_SESSION_ID})` : 'session id too long',
      );
    return claimSession(id, c._diagnose);
  };
  const claim = (id: unknown) => {
    if (typeof id != 'string' || !id.trim()) return;
    if (!bounded(id)) throw used();
    return (c._sessionId = id);
  };

  c._sessionId = '';
  c._giveSession = (id, replace) => {
    given = id;
    replaceable = replace;
  };
  c._nextSession = async (signal) => {
    const source = c._options.session;
    const id = given;
    given = undefined;
    if (id !== undefined) {
      if (bounded(id)) return (c._sessionId = id);
      // An initialSession already used on this page (a restored page) is replaced by a fresh one, if we can mint one.
      if (!replaceable || typeof source != 'function') throw used();
    }
    if (typeof source != 'function') return source === undefined ? source : (claim(source) ?? throwNone(source));
    const ms = clampTimeout(c._options.sessionTimeout ?? SESSION_TIMEOUT);
    // (A load superseded while it waited for the page's wait mints nothing.)
    const result = await afterWait(() => (signal.aborted ? Promise.reject(signal.reason) : callSession(source, signal, ms, c._sessionId)));
    return claim(isPlainObject(result) ? result.sessionId : result) ?? throwNone(result);
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
