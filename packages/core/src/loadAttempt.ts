import type { Controller } from './context';
import { READY_TIMEOUT } from './embedOptions';
import { EmbedError, type SessionFailure } from './errors';
import { present, type Frame } from './frame';
import { listen, unlisten } from './listener';
import { clampTimeout } from './timing';
import { buildEmbedUrl, redactSession } from './url';

/*
 * One load attempt: a fresh session, a new iframe in the container with the kept launch options
 * in its URL, and the watch for how the attempt ends: `ready` (the controller's receiver), the
 * ready timeout (READY_TIMEOUT unless `readyTimeout` says otherwise), or the page's
 * Content-Security-Policy blocking the frame, which the browser reports at once.
 */

// The browser reports a frame blocked by the page's CSP at once: fail at once, naming the fix. A
// report-only policy (how sites roll one out) blocks nothing: its violations are not failures.
const watchPolicy = ({ _origin: origin, _later: later, _fail: fail }: Attempt) => {
  const blocked = (e: SecurityPolicyViolationEvent) => {
    let from = '';
    try {
      from = new URL(e.blockedURI).origin;
    } catch {}
    if (from === origin && e.disposition != 'report' && /^(frame|child|default)-src/.test(e.effectiveDirective))
      fail(
        new EmbedError(
          'blocked',
          // The cause in production (directive and origin), the fix too in development.
          __DEV__
            ? `the page's Content-Security-Policy (${e.effectiveDirective}) blocks ${origin}: add ${origin} to its frame-src directive`
            : `${e.effectiveDirective} blocks ${origin}`,
        ),
      );
  };
  document.addEventListener('securitypolicyviolation', blocked);
  later(() => document.removeEventListener('securitypolicyviolation', blocked));
};

// No `ready` within `ms`: a failure a fresh session may cure; the message says whether the frame loaded.
const watchReady = (c: Attempt, mounted: Frame) => {
  const ms = clampTimeout(c._options.readyTimeout ?? READY_TIMEOUT);
  if (!ms) return;
  const timer = setTimeout(() => {
    // (The development sentence is built in development only: production reads nothing for it.)
    c._fail(
      new EmbedError(
        'timeout',
        !__DEV__
          ? `no ready in ${ms} ms, frame ${mounted._loads ? '' : 'not '}loaded`
          : mounted._loads
            ? `the frame loaded but sent no ready within ${ms} ms: the platform may refuse this page's origin (allow ${location.origin} for embedding), or the session or ${c._surface == 'app' ? 'deploymentId' : c._surface == 'chat' ? 'session' : 'publicId'} is wrong`
            : `the frame did not finish loading within ${ms} ms: check baseUrl (${c._origin}) and the network`,
      ),
      true,
    );
  }, ms);
  c._later(() => clearTimeout(timer));
};

// A frame taken out of the document and put back by something no binding saw (a route reuse, a
// host's appendChild) loads its URL again in a new window, with its spent session, and posts from
// a window nobody routes: a failure a fresh session cures. A hidden one waits: the binding's next
// mount sees the new window (embed.ts update()). A frame that loads another document in its window
// after its first (navigated away, or reloaded, by itself or anyone but the SDK) that has not said
// `ready` by its `load` (a document says it once, before or after its `load`) tells `_again`; a
// ready embed waits for the new document's `ready` as a new frame does. Counts the frame's loads.
// (It watches the frame's whole life, not the load attempt's scope, which `ready` ends.)
const watchReloaded = (c: Attempt, mounted: Frame) => {
  const { _iframe: iframe, _window: window } = mounted;
  iframe.addEventListener('load', () => {
    mounted._loads++;
    if (c._frame != mounted) return;
    if (iframe.contentWindow == window) {
      // (Counted from here on as if each earlier document had said it: one that never did shifts nothing.)
      const said = mounted._readies >= mounted._loads;
      mounted._readies = mounted._loads - (said ? 0 : 1);
      if (!said && mounted._loads > 1 && c._again()) watchReady(c, mounted);
    } else if (iframe.getClientRects().length)
      c._fail(
        new EmbedError(
          'fatal',
          __DEV__
            ? 'the frame was taken out of the document and put back (move it with moveBefore), which loaded it again with its spent session'
            : 'frame reloaded',
        ),
        true,
      );
  });
};

// A page with an opaque origin can never be allowed for embedding: refused before a session is minted.
const refuseOpaqueOrigin = () => {
  if (globalThis.origin == 'null')
    throw new EmbedError(
      'opaque-origin',
      __DEV__
        ? `this page's origin is opaque ("null": a sandboxed iframe without allow-same-origin, or a file:// page), which the platform cannot allow for embedding: serve the page from https:// (or http://localhost)`
        : 'origin null',
    );
};

// A container out of this page's document (removed, or moved into another document: an inert one
// gives the iframe no window, an iframe's sends the embed's messages to that iframe's window) is
// refused as `no-container`: before a session is minted, and again before the frame is appended.
const inPage = (c: Attempt) => {
  if (!c._container.isConnected || c._container.ownerDocument != document)
    throw new EmbedError('no-container', __DEV__ ? 'the container is not in the document' : 'container');
};

// The iframe of one load in the container, its window's messages routed to `_receive`.
const mount = (c: Attempt, url: string): Frame => {
  inPage(c);
  const o = c._options;
  const iframe = document.createElement('iframe');
  present(iframe, o, c._surface);
  iframe.allow = o.allow ?? 'fullscreen; clipboard-write';
  if (o.referrerPolicy) iframe.referrerPolicy = o.referrerPolicy;
  if (o.loading) iframe.loading = o.loading;
  if (o.sandbox != null) iframe.setAttribute('sandbox', o.sandbox);
  iframe.src = url;
  c._container.appendChild(iframe);
  // (In the page's document, the frame has its window at once.)
  const win = iframe.contentWindow!;
  listen(win, c._receive);
  return {
    _iframe: iframe,
    _window: win,
    _loads: 0,
    _readies: 0,
    _remove() {
      unlisten(win);
      iframe.remove();
    },
  };
};

/** What a load attempt reads of the controller's context, and what it gives it. */
type Attempt = Pick<
  Controller,
  | '_surface'
  | '_options'
  | '_origin'
  | '_container'
  | '_generation'
  | '_later'
  | '_nextSession'
  | '_carried'
  | '_receive'
  | '_fail'
  | '_again'
  | '_log'
  | '_frame'
  | '_attempt'
  | '_removeFrame'
>;

/**
 * Gives the controller its load attempts: `_frame`, `_attempt` and `_removeFrame`. An attempt
 * reads the options, origin and container of the context, the session from `_nextSession`, the
 * kept launch options from `_carried`; it registers its watches with the load's scope and fails
 * with `_fail`.
 */
export function createLoadAttempt(c: Attempt): void {
  const remove = () => {
    c._frame?._remove();
    c._frame = null;
  };
  c._frame = null;
  c._removeFrame = remove;
  c._attempt = async () => {
    remove();
    const attempt = c._generation;
    const abort = new AbortController();
    c._later(() => abort.abort());
    try {
      // Yield twice first: a mount undone in the same task, at once or by a binding's unmount
      // deferred one microtask (see binding.ts), never mints a session.
      await 0;
      await 0;
      if (attempt != c._generation) return;
      refuseOpaqueOrigin();
      inPage(c);
      const id = await c._nextSession(abort.signal);
      if (attempt != c._generation) return;
      const url = buildEmbedUrl(c._surface, { ...c._options, ...c._carried(), session: id });
      watchPolicy(c);
      const mounted = (c._frame = mount(c, url));
      c._log('mount', redactSession(url));
      watchReloaded(c, mounted);
      watchReady(c, mounted);
    } catch (e) {
      // A session call that failed or timed out is renewable; a refused session or a missing container is not.
      if (attempt == c._generation) c._fail(e as SessionFailure, (e as SessionFailure).renew);
    }
  };
}
