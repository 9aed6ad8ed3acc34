/* global location, innerHeight, scrollTo */
// The host side of the resilience benchmarks (bench/resilience.mjs), loaded as a module by a host
// page on 127.0.0.1 next to the core's built ESM. Each scenario runs in two versions: the SDK,
// and the hand-written integration below, written the way a typical host writes one without an
// SDK. The host's backend is `/session?tag=<scenario>&delay=<ms>` on this origin; it counts
// the sessions it mints per tag. The runner calls `window.resilience.<name>(...)` through Playwright.
const query = new URL(location.href).searchParams;
const core = await import(query.get('core') ?? '/core/index.mjs');
const EMBED = query.get('embed');
const delay = (ms) => new Promise((r) => setTimeout(r, ms));
const within = (ms, what, promise) =>
  Promise.race([promise, delay(ms).then(() => Promise.reject(new Error(`${what}: nothing within ${ms} ms`)))]);

// ---- the hand-written integration --------------------------------------------------------
// What a typical host writes: fetch a session from its backend, create the iframe, listen for
// the embed's messages (checking origin and source), and show an error when the embed reports a
// fatal one. `hooks` are the benchmark's probes, where a host would hide a spinner and so on;
// they change nothing in what the integration does. `session` is the URL of the host's endpoint
// or, for the benchmark's control only, a session already known ({ sessionId }).
async function handWritten(box, publicId, session, hooks = {}, lazy = false) {
  const { sessionId } = typeof session === 'string' ? await (await fetch(session, { method: 'POST' })).json() : session;
  const iframe = document.createElement('iframe');
  iframe.src = `${EMBED}/embed/dashboard/${encodeURIComponent(publicId)}?session=${encodeURIComponent(sessionId)}`;
  iframe.title = 'Analytics dashboard';
  if (lazy) iframe.loading = 'lazy';
  iframe.style.cssText = 'border:0;width:100%;height:100%;display:block';
  box.appendChild(iframe);
  window.addEventListener('message', (event) => {
    if (event.origin !== EMBED || event.source !== iframe.contentWindow) return;
    const { source, type, payload } = event.data ?? {};
    if (source !== 'platform-embed') return;
    if (type === 'platform:event:ready') hooks.ready?.();
    else if (type === 'platform:event:navigate') hooks.navigate?.(payload.path);
    else if (type === 'platform:event:error' && payload.fatal) {
      iframe.remove();
      box.textContent = 'This dashboard could not be loaded. Please reload the page.';
      hooks.error?.();
    }
  });
  return iframe;
}

const container = (id, height = 360) => {
  const div = document.createElement('div');
  div.id = id;
  div.style.cssText = `width:640px;height:${height}px;display:block`;
  document.body.appendChild(div);
  return div;
};
// Minting a session is a POST (both integrations): concurrent GETs of one URL are serialized by
// Chromium's HTTP cache lock, one per response time, even when the response says no-store.
const sessionUrl = (tag, ms) => `/session?tag=${encodeURIComponent(tag)}&delay=${ms}`;
const sdkSession =
  (tag, ms) =>
  async ({ signal }) =>
    (await fetch(sessionUrl(tag, ms), { method: 'POST', signal })).json();

// ---- lazy: many embeds on a long page ------------------------------------------------------
// `count` embeds of 360 px stacked on the page (2 fill a 720 px viewport). Resolves once the
// embeds in view are ready, with how many are in view and how many within the core's 300 px margin.
let lazy;
async function lazyMount(mode, tag, count, sessionDelay) {
  const boxes = Array.from({ length: count }, (_, i) => container(`lazy${i}`));
  const inView = boxes.filter((b) => b.getBoundingClientRect().top < innerHeight).length;
  const inMargin = boxes.filter((b) => b.getBoundingClientRect().top < innerHeight + 300).length;
  const readies = boxes.map(() => {
    let done;
    const promise = new Promise((r) => (done = r));
    return { promise, done };
  });
  if (mode === 'sdk') {
    const handles = boxes.map((box, i) =>
      core.embedDashboard({ container: box, baseUrl: EMBED, publicId: `p${i}`, loading: 'lazy', session: sdkSession(tag, sessionDelay) }),
    );
    handles.forEach((h, i) => h.ready.then(readies[i].done));
    lazy = { handles };
  } else {
    // A host that wants lazy loading sets the iframe's loading="lazy"; the sessions are fetched at once all the same.
    boxes.forEach((box, i) => handWritten(box, `p${i}`, sessionUrl(tag, sessionDelay), { ready: readies[i].done }, true));
    lazy = {};
  }
  lazy.readies = readies;
  await within(20000, 'embeds in view ready', Promise.all(readies.slice(0, inView).map((r) => r.promise)));
  return { inView, inMargin, statuses: lazy.handles?.map((h) => h.getState().status) };
}
// Scrolls to the bottom and waits for the last embed's ready: the page still works.
async function lazyScrollToEnd() {
  scrollTo(0, document.body.scrollHeight);
  await within(20000, 'last embed ready after scrolling', lazy.readies.at(-1).promise);
  return { statuses: lazy.handles?.map((h) => h.getState().status) };
}

// ---- fatal error after ready -----------------------------------------------------------
// Mounts one embed, lets the viewer navigate inside it, then has the embed report a fatal error;
// measures from that request to the next `ready`, and whether the viewer's path was sent to the new frame
// (the embed confirms a `navigate` action with a `navigate` event).
async function fatalRound(mode, tag, sessionDelay, viewerPath, wait) {
  const box = document.getElementById('fatal') ?? container('fatal');
  box.textContent = '';
  const log = { readies: [], paths: [] };
  let frame;
  let handle;
  let firstReady;
  const ready = new Promise((r) => (firstReady = r));
  const hooks = {
    ready: () => (log.readies.push(performance.now()), firstReady()),
    navigate: (path) => log.paths.push({ path, at: performance.now() }),
  };
  if (mode === 'sdk') {
    handle = core.embedDashboard({
      container: box,
      baseUrl: EMBED,
      publicId: 'fatal',
      session: sdkSession(tag, sessionDelay),
      onReady: hooks.ready,
      onNavigate: ({ path }) => hooks.navigate(path),
    });
    await within(20000, 'first ready', ready);
    frame = handle.iframe;
  } else {
    frame = await handWritten(box, 'fatal', sessionUrl(tag, sessionDelay), hooks);
    await within(20000, 'first ready', ready);
  }
  // The viewer moves inside the embed; the host hears of it.
  frame.contentWindow.postMessage({ bench: 'viewer-navigate', path: viewerPath }, EMBED);
  await within(
    5000,
    'viewer navigate event',
    (async () => {
      while (!log.paths.length) await delay(5);
    })(),
  );
  const t0 = performance.now();
  frame.contentWindow.postMessage({ bench: 'fatal' }, EMBED);
  // Waits for a second ready (at most `wait` ms), then a little more for the confirmation of the path.
  for (const end = t0 + wait; log.readies.length < 2 && performance.now() < end;) await delay(5);
  const again = log.readies[1];
  if (again !== undefined) await delay(300);
  const result = {
    ms: again === undefined ? null : again - t0,
    pathBack: again !== undefined && log.paths.some((p) => p.at > again && p.path === viewerPath),
    status: handle?.getState().status ?? (box.querySelector('iframe') ? 'frame' : 'error shown'),
    shown: box.querySelector('iframe') ? '' : box.textContent,
    newFrame: mode === 'sdk' ? handle.iframe !== frame : !!box.querySelector('iframe') && box.querySelector('iframe') !== frame,
  };
  handle?.destroy();
  box.textContent = '';
  return result;
}

// ---- time to ready: initialSession vs a session fetched by the browser -------------------
// `initial`: the SDK with a session id minted while the page was rendered (passed in);
// `fetched`: the SDK calling the host's session endpoint; `hand`: the hand-written integration
// (fetch, then iframe); `frame`: control, the iframe alone with a known session, no fetch.
async function timeToReady(mode, tag, sessionDelay, initialSession) {
  const box = document.getElementById('ttr') ?? container('ttr');
  box.textContent = '';
  let ms;
  if (mode === 'initial' || mode === 'fetched') {
    const t0 = performance.now();
    const h = core.embedDashboard({
      container: box,
      baseUrl: EMBED,
      publicId: 'ttr',
      session: sdkSession(tag, sessionDelay),
      ...(mode === 'initial' && { initialSession }),
    });
    ms = await within(20000, mode, new Promise((resolve) => h.on('ready', () => resolve(performance.now() - t0))));
    h.destroy();
  } else {
    let done;
    const ready = new Promise((r) => (done = r));
    const t0 = performance.now();
    // The control is given its session, so only the iframe load is timed.
    await handWritten(box, 'ttr', mode === 'frame' ? { sessionId: initialSession } : sessionUrl(tag, sessionDelay), {
      ready: () => done(performance.now() - t0),
    });
    ms = await within(20000, mode, ready);
  }
  box.textContent = '';
  return ms;
}

// ---- a rate-limited platform ----------------------------------------------------------------
// `count` embeds mount at once while the host's session route answers 429 with Retry-After (the
// platform asked to wait). SDK: `session` returns the fetch Response as it is (the SDK reads its
// status and Retry-After). Hand-written: what a host writes to be "resilient" without an SDK, three
// retries with a doubling backoff, and an error shown when they are spent. Resolves after `wait`
// ms with how many embeds reached ready.
async function rateLimitRound(mode, tag, count, wait) {
  const url = `/session?tag=${encodeURIComponent(tag)}&limited=1`;
  let ready = 0;
  const boxes = Array.from({ length: count }, (_, i) => container(`limited-${tag}-${i}`, 40));
  const handles = [];
  if (mode === 'sdk')
    for (const [i, box] of boxes.entries())
      handles.push(
        core.embedDashboard({
          container: box,
          baseUrl: EMBED,
          publicId: `r${i}`,
          session: ({ signal }) => fetch(url, { method: 'POST', signal }),
          onReady: () => ready++,
        }),
      );
  else
    for (const [i, box] of boxes.entries())
      (async () => {
        for (let attempt = 0; ; attempt++) {
          const response = await fetch(url, { method: 'POST' });
          if (response.ok) return handWritten(box, `r${i}`, await response.json(), { ready: () => ready++ });
          if (attempt == 3) return void (box.textContent = 'This dashboard could not be loaded.');
          await delay(250 * 2 ** attempt);
        }
      })();
  await delay(wait);
  for (const h of handles) h.destroy();
  for (const box of boxes) box.remove();
  return { ready };
}

window.resilience = { lazyMount, lazyScrollToEnd, fatalRound, timeToReady, rateLimitRound };
