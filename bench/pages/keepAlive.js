/* global location, Element, requestAnimationFrame */
// The host side of the keep-alive benchmarks (bench/keepAlive.mjs), loaded as a module by a host
// page on 127.0.0.1 next to the core's built ESM. The page has one route outlet, as a router
// does: entering the dashboard route renders a route element with the embed's container into
// the outlet; leaving it removes that element (and shows a "Settings" route instead). Three
// ways to show the dashboard on that route:
// - `remount`: today's SDK without keep-alive, `embedDashboard` on enter and `destroy()` on leave;
// - `keep`: what a framework binding does with `keepAlive` (one `createBinding()` per component
//   instance: `mount` on enter, `unmount` on leave, before the route element goes);
// - `hand`: a hand-written integration, below.
// The host's backend is `/session?tag=<id>&delay=<ms>` on this origin; it counts what it mints
// per tag. With `?nomove` the page deletes `Element.prototype.moveBefore` before the core loads
// (Safari today). The runner calls `window.keepAlive.<name>(...)` through Playwright.
const query = new URL(location.href).searchParams;
if (query.has('nomove')) delete Element.prototype.moveBefore;
const core = await import('/core/index.mjs');
const EMBED = query.get('embed');
const SESSION_DELAY = Number(query.get('delay'));
const TIMEOUT = 20000;

const outlet = document.getElementById('outlet');
const sessionUrl = (tag) => `/session?tag=${encodeURIComponent(tag)}&delay=${SESSION_DELAY}`;
// Minting is a POST in both integrations: concurrent GETs of one URL are serialized by
// Chromium's HTTP cache lock (see bench/resilience.mjs).
const sdkSession =
  (tag) =>
  async ({ signal }) =>
    (await fetch(sessionUrl(tag), { method: 'POST', signal })).json();
const dashboard = (id) => ({ baseUrl: EMBED, publicId: id, session: sdkSession(id) });

// ---- the hand-written integration --------------------------------------------------------
// What a competent host developer writes without the SDK: on enter, a session from the backend
// (sessions are single-use, so a new one every time), an iframe, and a listener that checks
// origin and source; on leave, the session call is aborted if still running and the listener
// and the iframe go. `changed` is called when the embed says `ready`.
function handWritten(box, publicId, changed) {
  const abort = new AbortController();
  const route = { ready: false, iframe: undefined };
  const onMessage = (event) => {
    if (!route.iframe || event.origin !== EMBED || event.source !== route.iframe.contentWindow) return;
    const data = event.data;
    if (data?.source !== 'platform-embed' || data.type !== 'platform:event:ready') return;
    route.ready = true;
    changed();
  };
  window.addEventListener('message', onMessage);
  fetch(sessionUrl(publicId), { method: 'POST', signal: abort.signal })
    .then((response) => response.json())
    .then(({ sessionId }) => {
      const iframe = document.createElement('iframe');
      iframe.src = `${EMBED}/embed/dashboard/${encodeURIComponent(publicId)}?session=${encodeURIComponent(sessionId)}`;
      iframe.title = 'Analytics dashboard';
      iframe.style.cssText = 'border:0;width:100%;height:100%;display:block';
      route.iframe = iframe;
      box.append(iframe);
    })
    .catch((error) => error.name === 'AbortError' || console.error(error));
  route.leave = () => {
    abort.abort();
    window.removeEventListener('message', onMessage);
    route.iframe?.remove();
  };
  return route;
}

// ---- the route ---------------------------------------------------------------------------
// Routes by id (the id is also the dashboard's publicId and the session endpoint's tag).
const routes = new Map();

function routeElement() {
  const element = document.createElement('section');
  const box = document.createElement('div');
  box.style.cssText = 'width:640px;height:360px';
  element.append(box);
  outlet.replaceChildren(element);
  return { element, box };
}

// Whether the embed is visibly mounted in `box`: its iframe is there, in the document, with a size.
const shown = (box) => {
  const iframe = box.querySelector('iframe');
  if (!iframe?.isConnected || iframe.parentElement !== box) return false;
  const { width, height } = iframe.getBoundingClientRect();
  return width > 0 && height > 0;
};

// Resolves once `ready()` holds and the embed is shown in `box`, checked now and whenever
// `subscribe`'s listener is called: with the time since `t0`, and the time of the first animation
// frame after it (the frame that paints it).
function whenShown(t0, box, ready, subscribe, what) {
  return new Promise((resolve, reject) => {
    let unsubscribe;
    let done = false;
    const timer = setTimeout(() => {
      unsubscribe?.();
      reject(new Error(`${what}: not ready and shown within ${TIMEOUT} ms`));
    }, TIMEOUT);
    const check = () => {
      if (done || !ready() || !shown(box)) return;
      done = true;
      const ms = performance.now() - t0;
      clearTimeout(timer);
      unsubscribe?.();
      requestAnimationFrame(() => resolve({ ms, frameMs: performance.now() - t0, shownAtFrame: shown(box) }));
    };
    unsubscribe = subscribe(check);
    check();
  });
}

const counts = () => ({
  iframes: document.querySelectorAll('iframe').length,
  parked: core.parkedCount(),
  routed: core.listenerCount(),
});

/** Enters the dashboard route `id` in `mode`; resolves once it is ready and shown. */
async function enter(mode, id) {
  if (routes.get(id)?.element) throw new Error(`${id}: entered twice`);
  const previous = routes.get(id) ?? {};
  const t0 = performance.now();
  const { element, box } = routeElement();
  const route = { ...previous, mode, element, box };
  routes.set(id, route);
  let timing;
  if (mode === 'remount') {
    const handle = core.embedDashboard({ container: box, ...dashboard(id) });
    route.handle = handle;
    timing = await whenShown(t0, box, () => handle.getState().status === 'ready', handle.subscribe, id);
  } else if (mode === 'keep') {
    // A new component instance, so a new binding; the core adopts the embed parked under its name.
    const binding = core.createBinding();
    route.binding = binding;
    route.handle = binding.mount(box, { surface: 'dashboard', ...dashboard(id), keepAlive: true });
    timing = await whenShown(t0, box, () => binding.getState().status === 'ready', binding.subscribe, id);
  } else {
    const listeners = new Set();
    route.hand = handWritten(box, id, () => listeners.forEach((listener) => listener()));
    timing = await whenShown(
      t0,
      box,
      () => route.hand.ready,
      (listener) => (listeners.add(listener), () => listeners.delete(listener)),
      id,
    );
  }
  const iframe = box.querySelector('iframe');
  const result = {
    ...timing,
    // The same iframe element as on the last visit (kept, not a new one).
    sameIframe: iframe === previous.iframe,
    // The handle the route got is the preloaded one (when there was a preload).
    adoptedPreload: !!previous.preloaded && route.handle === previous.preloaded,
    ...counts(),
  };
  route.iframe = iframe;
  return result;
}

/**
 * Leaves the dashboard route `id`, as a router does: the component goes, then its element.
 * Returns whether the iframe it showed is still in the page (parked) and where.
 */
function leave(id) {
  const route = routes.get(id);
  if (route.mode === 'remount') route.handle.destroy();
  else if (route.mode === 'keep') route.binding.unmount();
  else route.hand.leave();
  route.element.remove();
  route.element = undefined;
  const settings = document.createElement('section');
  settings.textContent = 'Settings';
  outlet.replaceChildren(settings);
  return { kept: !!route.iframe?.isConnected, inLot: !!route.iframe?.closest('[inert]'), ...counts() };
}

/**
 * Preloads the dashboard `id` (as on a hover of its link). `wait`: `'ready'` resolves once the
 * preload is ready, a number after that many ms (the preload may still be loading).
 */
async function preload(id, wait) {
  const t0 = performance.now();
  const handle = core.preload('dashboard', dashboard(id));
  routes.set(id, { preloaded: handle });
  if (wait === 'ready') {
    await handle.ready;
    return { readyMs: performance.now() - t0, ...counts() };
  }
  await new Promise((resolve) => setTimeout(resolve, wait));
  return { status: handle.getState().status, ...counts() };
}

/** Ends the routes `ids` for good (a kept embed is destroyed); what is left on the page. */
function finish(ids) {
  for (const id of ids) {
    const route = routes.get(id);
    if (route.element) leave(id);
    route.handle?.destroy();
    // (A preload nothing adopted, so that it does not stay parked for the next measures.)
    route.preloaded?.destroy();
    routes.delete(id);
  }
  const lot = [...document.body.children].find((element) => element.hasAttribute('inert'));
  return { ...counts(), slots: lot?.childElementCount ?? 0 };
}

window.keepAlive = { enter, leave, preload, finish, canMove: () => 'moveBefore' in Element.prototype };
