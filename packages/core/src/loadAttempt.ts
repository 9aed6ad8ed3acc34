import { READY_TIMEOUT, type AnyOptions } from './embedOptions';
import { EmbedError } from './errors';
import { mountFrame, type Frame } from './frame';
import type { HostState } from './keptState';
import type { Receiver } from './listener';
import type { Surface } from './catalog';
import type { Scope } from './scope';
import type { SessionFailure } from './errors';
import type { createSessionSource } from './sessionSource';
import { clampTimeout } from './timing';
import { buildEmbedUrl, redactSession } from './url';

/*
 * One load attempt: a fresh session, a new iframe in the container with the kept launch options
 * in its URL, and the watch for how the attempt ends: `ready` (the controller's receiver), the
 * ready timeout (READY_TIMEOUT unless `readyTimeout` says otherwise), or the page's
 * Content-Security-Policy blocking the frame, which the browser reports at once.
 */

/** Fails the current attempt; `renewable` when a fresh session may cure it. */
export type Fail = (failure: SessionFailure, renewable?: boolean) => void;

// The browser reports a frame blocked by the page's CSP at once: fail at once, naming the fix. A
// report-only policy (how sites roll one out) blocks nothing: its violations are not failures.
const watchPolicy = (origin: string, later: Scope['later'], fail: Fail) => {
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
const watchReady = (surface: Surface, ms: number, mounted: Frame, origin: string, later: Scope['later'], fail: Fail) => {
  if (!ms) return;
  const timer = setTimeout(() => {
    const id = surface == 'app' ? 'deploymentId' : surface == 'chat' ? 'session' : 'publicId';
    let message = `no ready in ${ms} ms, frame ${mounted.loads ? '' : 'not '}loaded`;
    if (__DEV__)
      message = mounted.loads
        ? `the frame loaded but sent no ready within ${ms} ms: the platform may refuse this page's origin (allow ${location.origin} for embedding), or the session or ${id} is wrong`
        : `the frame did not finish loading within ${ms} ms: check baseUrl (${origin}) and the network`;
    fail(new EmbedError('timeout', message), true);
  }, ms);
  later(() => clearTimeout(timer));
};

// A frame taken out of the document and put back by something no binding saw (a route reuse, a
// host's appendChild) loads its URL again in a new window, with its spent session, and posts from
// a window nobody routes: a failure a fresh session cures. A hidden one waits: the binding's next
// mount sees the new window (embed.ts update()). A frame that loads another document in its window
// after its first (navigated away, or reloaded, by itself or anyone but the SDK) that has not said
// `ready` by its `load` (a document says it once, before or after its `load`) tells `again`.
// (It watches the frame's whole life, not the load attempt's scope, which `ready` ends.)
const watchReloaded = (mounted: Frame, current: () => boolean, fail: Fail, again: () => void) => {
  const { iframe, window } = mounted;
  iframe.addEventListener('load', () => {
    if (!current()) return;
    if (iframe.contentWindow == window) {
      // (Counted from here on as if each earlier document had said it: one that never did shifts nothing.)
      const said = mounted.readies >= mounted.loads;
      mounted.readies = mounted.loads - (said ? 0 : 1);
      if (!said && mounted.loads > 1) again();
    } else if (iframe.getClientRects().length)
      fail(
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

/**
 * Creates the load attempts of one embed.
 * @param origin the embed's tenant origin
 * @param container the element the embed mounts into
 * @param carried the kept launch options the next URL carries
 * @param receive routes the new frame's messages
 * @param again the frame loaded another document after its first, on its own: whether the embed
 *   was ready (then it waits for the new document's `ready` within `readyTimeout`, as a new frame does)
 */
export function createLoadAttempt(
  surface: Surface,
  options: () => AnyOptions,
  origin: () => string,
  container: () => HTMLElement,
  session: ReturnType<typeof createSessionSource>,
  carried: () => HostState,
  { later, generation }: Scope,
  receive: Receiver,
  fail: Fail,
  log: (...args: unknown[]) => void,
  again: () => boolean,
) {
  let frame: Frame | null = null;

  const remove = () => {
    frame?.remove();
    frame = null;
  };

  return {
    /** The current frame, if one is mounted. */
    frame: () => frame,
    /** Removes the current frame. */
    remove,
    /** Starts an attempt (the caller ended the previous one's scope). */
    async start(): Promise<void> {
      remove();
      const attempt = generation();
      const abort = new AbortController();
      later(() => abort.abort());
      try {
        // Yield twice first: a mount undone in the same task, at once or by a binding's unmount
        // deferred one microtask (see binding.ts), never mints a session.
        await 0;
        await 0;
        if (attempt != generation()) return;
        refuseOpaqueOrigin();
        const id = await session.next(abort.signal);
        if (attempt != generation()) return;
        const url = buildEmbedUrl(surface, { ...options(), ...carried(), session: id });
        watchPolicy(origin(), later, fail);
        const mounted = (frame = mountFrame(container(), url, options(), surface, receive));
        log('mount', redactSession(url));
        const waitReady = () => watchReady(surface, clampTimeout(options().readyTimeout ?? READY_TIMEOUT), mounted, origin(), later, fail);
        watchReloaded(
          mounted,
          () => frame == mounted,
          fail,
          () => again() && waitReady(),
        );
        waitReady();
      } catch (e) {
        // A session call that failed or timed out is renewable; a refused session or a missing container is not.
        if (attempt == generation()) fail(e as SessionFailure, (e as SessionFailure).renew);
      }
    },
  };
}
