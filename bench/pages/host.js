/* global location */
// The host side of every benchmark, loaded as a module by the host page (127.0.0.1) next to
// the core's built ESM (`?core=` names another build, to measure a candidate fix side by side).
// The runner calls `window.bench.<name>(...)` through Playwright.
const query = new URL(location.href).searchParams;
const core = await import(query.get('core') ?? '/core/index.mjs');
const EMBED = query.get('embed');
const DRILLDOWN = 'platform:event:drilldown';
let seq = 0;
// Sessions are single-use page-wide in the core: every mount gets a fresh id.
const session = (tag) => `${tag}-${Date.now().toString(36)}-${++seq}`;
const embedUrl = (publicId) => `${EMBED}/embed/dashboard/${publicId}?session=${session('hand')}`;
const container = (id) => {
  const div = document.createElement('div');
  div.id = id;
  div.style.cssText = 'width:160px;height:90px;display:inline-block';
  document.body.appendChild(div);
  return div;
};
const frameStyle = 'border:0;width:100%;height:100%;display:block';
const blastAction = (n) => ({
  source: 'platform-embed',
  direction: 'action',
  type: 'platform:action:navigate',
  payload: { path: `/blast/${n}` },
  timestamp: Date.now(),
});
const delay = (ms) => new Promise((r) => setTimeout(r, ms));

// A hand-written iframe, resolved with the frame and the time its `ready` was handled.
function handFrame(parent, publicId) {
  return new Promise((resolve, reject) => {
    const frame = document.createElement('iframe');
    frame.style.cssText = frameStyle;
    frame.title = 'Analytics dashboard';
    frame.src = embedUrl(publicId);
    const onReady = (event) => {
      if (event.source !== frame.contentWindow || event.origin !== EMBED) return;
      const data = event.data;
      if (!data || data.source !== 'platform-embed' || data.type !== 'platform:event:ready') return;
      const at = performance.now();
      window.removeEventListener('message', onReady);
      resolve({ frame, at });
    };
    window.addEventListener('message', onReady);
    parent.appendChild(frame);
    setTimeout(() => reject(new Error('hand-written frame: no ready in 20 s')), 20000);
  });
}

// ---- 1 and 2: dispatch cost ------------------------------------------------------------
// One page per mode. `setup` mounts, `blast(n)` asks the embed for n events and resolves
// with the time from the request to the last event handled.
let counter = { n: 0, target: 0, last: 0, done: () => {} };
const count = () => {
  counter.last = performance.now();
  if (++counter.n === counter.target) counter.done();
};
let trigger;

async function setupDispatch(mode, embeds = 1) {
  if (mode === 'bare' || mode === 'hand') {
    // `embeds` > 1: the control of benchmark 2, the same number of iframes without the SDK.
    let frame;
    for (let i = 0; i < embeds; i++) ({ frame } = await handFrame(container(`c${i}`), `p${i}`));
    const win = frame.contentWindow;
    // The physical limit: counts, records the time, reads nothing.
    if (mode === 'bare') window.addEventListener('message', count);
    // What a careful hand-written host does at the least: checks source and origin, reads the data.
    else
      window.addEventListener('message', (event) => {
        if (event.source !== win || event.origin !== EMBED) return;
        const data = event.data;
        if (data && data.source === 'platform-embed' && data.direction === 'event' && data.type === DRILLDOWN) count();
      });
    trigger = (n) => win.postMessage(blastAction(n), EMBED);
  } else {
    const handles = [];
    for (let i = 0; i < embeds; i++)
      handles.push(core.embedDashboard({ container: container(`c${i}`), baseUrl: EMBED, publicId: `p${i}`, session: session('sdk') }));
    await Promise.all(handles.map((h) => h.ready));
    // Events come from the last one mounted: its routing entry is the newest of `embeds`.
    const blaster = handles[handles.length - 1];
    blaster.on('drilldown', count);
    trigger = (n) => blaster.navigate(`/blast/${n}`);
  }
  return { listenerCount: core.listenerCount(), iframes: document.querySelectorAll('iframe').length };
}

function blast(n) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`blast: ${counter.n} of ${n} events after 60 s`)), 60000);
    const t0 = performance.now();
    counter = {
      n: 0,
      target: n,
      last: 0,
      done: () => {
        clearTimeout(timer);
        resolve(counter.last - t0);
      },
    };
    trigger(n);
  });
}

// ---- 3: hostile payload -----------------------------------------------------------------
let hostile;
// `withSdk: false` is the control: the same page and frames with no SDK embed mounted.
async function setupHostile(hostileOrigin, withSdk = true) {
  if (withSdk) await core.embedDashboard({ container: container('c0'), baseUrl: EMBED, publicId: 'p0', session: session('sdk') }).ready;
  const frame = document.createElement('iframe');
  frame.src = `${hostileOrigin}/hostile`;
  await new Promise((resolve) => {
    frame.onload = resolve;
    document.body.appendChild(frame);
  });
  hostile = { win: frame.contentWindow };
  return { listenerCount: core.listenerCount() };
}

// Starts the 5 ms sampler (and, for `naive`, a listener that reads `event.data` first, as a
// careless SDK would). Delivery of the payload is detected by counting the hostile frame's
// messages by `event.source` only: the payload and then a small "posted" message.
function armHostile(mode) {
  const state = { maxGap: 0, ticks: 0, messages: 0 };
  let last = performance.now();
  const sampler = setInterval(() => {
    const now = performance.now();
    state.maxGap = Math.max(state.maxGap, now - last);
    state.ticks++;
    last = now;
  }, 5);
  const naive = (event) => {
    const data = event.data;
    if (data && data.source === 'platform-embed') state.read = (state.read ?? 0) + 1;
  };
  let delivered;
  const arrived = new Promise((resolve) => (delivered = resolve));
  const watch = (event) => {
    if (event.source === hostile.win && ++state.messages === 2) delivered(performance.now());
  };
  window.addEventListener('message', watch);
  if (mode === 'naive') window.addEventListener('message', naive);
  hostile.result = (async () => {
    const timeout = delay(30000).then(() => Promise.reject(new Error('hostile payload not delivered in 30 s')));
    await Promise.race([arrived, timeout]);
    await delay(250); // margin: anything the delivery set off has run by now
    clearInterval(sampler);
    window.removeEventListener('message', watch);
    window.removeEventListener('message', naive);
    return { maxGap: state.maxGap, ticks: state.ticks, naiveReads: state.read ?? 0 };
  })();
}

const hostileResult = () => hostile.result;

// ---- 4: mount and destroy ---------------------------------------------------------------
async function mountDestroy(cycles) {
  const box = document.getElementById('md') ?? container('md');
  for (let i = 0; i < cycles; i++) {
    const h = core.embedDashboard({ container: box, baseUrl: EMBED, publicId: 'md', session: session('md'), readyTimeout: 20000 });
    await h.ready;
    h.destroy();
  }
  return { iframes: document.querySelectorAll('iframe').length, listenerCount: core.listenerCount() };
}
// One embed left mounted, to show that the counts do see ours.
let held;
async function mountOne() {
  held = core.embedDashboard({
    container: document.getElementById('md') ?? container('md'),
    baseUrl: EMBED,
    publicId: 'md',
    session: session('md'),
  });
  await held.ready;
  return { iframes: document.querySelectorAll('iframe').length, listenerCount: core.listenerCount() };
}
function destroyOne() {
  held.destroy();
  held = undefined;
  return { iframes: document.querySelectorAll('iframe').length, listenerCount: core.listenerCount() };
}

// ---- 5: time to first event -------------------------------------------------------------
async function firstEvent(mode) {
  const box = document.getElementById('fe') ?? container('fe');
  let ms;
  if (mode === 'sdk') {
    const t0 = performance.now();
    const h = core.embedDashboard({ container: box, baseUrl: EMBED, publicId: 'fe', session: session('fe') });
    ms = await new Promise((resolve) => h.on('ready', () => resolve(performance.now() - t0)));
    h.destroy();
  } else {
    const t0 = performance.now();
    const { frame, at } = await handFrame(box, 'fe');
    ms = at - t0;
    frame.remove();
  }
  return ms;
}

window.bench = { setupDispatch, blast, setupHostile, armHostile, hostileResult, mountDestroy, mountOne, destroyOne, firstEvent };
