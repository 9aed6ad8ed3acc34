/* global location */
// The host side of the DOM-work benchmark (bench/domWork.mjs), loaded as a module by a host page
// on 127.0.0.1. The page holds N dashboards (N sections, each with a 320×200 container) and does
// DOM work of its own beside them; with `?sdk` the dashboards are embeds of the core's built ESM,
// else (the same page without the SDK) plain iframes of the same embed pages. `hide()` hides every
// section (`display: none`) as React's <Activity mode="hidden"> does to a route left, and the SDK's
// embeds are unmounted as a hidden component's are (createBinding().unmount(): hidden is not
// gone, so each waits, watched, for its container's real removal). The runner calls
// `window.domWork.<name>(...)` through Playwright.
const query = new URL(location.href).searchParams;
const EMBED = query.get('embed');
const N = Number(query.get('n'));
const core = query.has('sdk') ? await import('/core/index.mjs') : null;

const page = document.querySelector('main');
const list = page.appendChild(document.createElement('ul'));
const sections = [];
const bindings = [];

window.domWork = {
  /** Mounts the N dashboards and waits until every one is ready (SDK) or loaded (iframes). */
  async setup() {
    const ready = [];
    for (let i = 0; i < N; i++) {
      const section = page.appendChild(document.createElement('section'));
      const box = section.appendChild(document.createElement('div'));
      box.style.cssText = 'width:320px;height:200px';
      sections.push(section);
      if (core) {
        const binding = core.createBinding();
        bindings.push(binding);
        const handle = binding.mount(box, {
          surface: 'dashboard',
          baseUrl: EMBED,
          publicId: `d${i}`,
          session: `domwork-${i}-${Math.random()}`,
        });
        ready.push(handle.ready);
      } else {
        const iframe = document.createElement('iframe');
        iframe.src = `${EMBED}/embed/dashboard/d${i}?session=plain-${i}`;
        iframe.style.cssText = 'border:0;width:100%;height:100%;display:block';
        ready.push(new Promise((done) => iframe.addEventListener('load', done, { once: true })));
        box.append(iframe);
      }
    }
    await Promise.all(ready);
    return { iframes: document.querySelectorAll('iframe').length, routed: core ? core.listenerCount() : 0 };
  },
  /** Hides every section, as a framework hides a route it keeps (the SDK's components unmount, hidden). */
  async hide() {
    for (const section of sections) section.style.display = 'none';
    for (const binding of bindings) binding.unmount();
    await new Promise((done) => setTimeout(done, 50));
    return { statuses: [...new Set(bindings.map((b) => b.getState().status))] };
  },
  /**
   * `count` appends of a new element to `target` (`list`: a list in the page's main element;
   * `body`: the body itself, an ancestor of every watched container), timed until the microtasks
   * they queued (MutationObserver callbacks) have run; the nodes are removed after, untimed.
   */
  async work(count, target) {
    const parent = target == 'body' ? document.body : list;
    const added = [];
    const t0 = performance.now();
    for (let i = 0; i < count; i++) added.push(parent.appendChild(document.createElement('li')));
    await Promise.resolve();
    const ms = performance.now() - t0;
    for (const node of added) node.remove();
    await new Promise((done) => setTimeout(done, 0));
    return ms;
  },
};
