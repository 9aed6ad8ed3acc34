import { expect, test } from '@playwright/test';
import { resolve } from 'node:path';
import { resilientEmbedPage } from './support/resilientEmbed';
import { startStaticServer, type RunningServer } from './support/staticServer';

// Found by h/attack, in real Chromium: the script tag's preload() called from <head>, before the
// parser made <body> (was: a raw TypeError from the lot's append; the core test is
// packages/core/test/edgeAttacks.test.ts). Host page on 127.0.0.1, the embed on localhost.

let minted = 0;
// The session of each embed page the frames loaded.
let loaded: string[] = [];
let host: RunningServer;
let embed: RunningServer;
test.beforeAll(async () => {
  embed = await startStaticServer({
    host: 'localhost',
    routes: (req, res) => {
      if (!req.url?.startsWith('/embed/dashboard/')) return false;
      loaded.push(new URL(req.url, embed.origin).searchParams.get('session')!);
      res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
      res.end(resilientEmbedPage(host.origin));
      return true;
    },
  });
  host = await startStaticServer({
    host: '127.0.0.1',
    mounts: { '/element/': resolve(import.meta.dirname, '../packages/element/dist') },
    routes: (req, res) => {
      if (req.url === '/session') {
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify({ sessionId: `s${++minted}` }));
        return true;
      }
      if (req.url?.startsWith('/plain') || req.url?.startsWith('/trusted-types')) {
        res.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          // (A page that enforces Trusted Types: any string given to a DOM sink (innerHTML, a script's src, eval) throws.)
          ...(req.url.startsWith('/trusted-types') && {
            'content-security-policy': "require-trusted-types-for 'script'; trusted-types 'none'",
          }),
        });
        res.end(`<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script src="/element/${req.url.includes('development') ? 'platform-embed.js' : 'platform-embed.min.js'}"></script></head>
<body><div id="a"></div><div id="b"></div></body></html>`);
        return true;
      }
      const build = req.url === '/page?build=development' ? 'platform-embed.js' : 'platform-embed.min.js';
      if (!req.url?.startsWith('/page')) return false;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(`<!doctype html><html><head><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,">
<script src="/element/${build}"></script>
<script>
  window.bodyAtPreload = String(document.body);
  try {
    window.early = PlatformEmbed.preload('dashboard', {
      baseUrl: ${JSON.stringify(embed.origin)},
      publicId: 'sales',
      session: async () => (await fetch('/session', { method: 'POST' })).json(),
    });
  } catch (e) {
    window.thrown = String(e);
  }
</script></head>
<body><div id="route" style="width:400px;height:300px"></div></body></html>`);
      return true;
    },
  });
});
test.afterAll(async () => {
  await Promise.all([host?.close(), embed?.close()]);
});

for (const build of ['development', 'production'])
  test(`${build} script: preload() from <head> preloads, and the route's embed adopts it ready, one session`, async ({ page }) => {
    minted = 0;
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${host.origin}/page?build=${build}`);
    expect(await page.evaluate(() => [window.bodyAtPreload, window.thrown])).toEqual(['null', undefined]);
    await page.waitForFunction(() => (window.early as { getState(): { status: string } }).getState().status === 'ready');
    const adopted = await page.evaluate(async (base) => {
      const handle = PlatformEmbed.embedDashboard({
        container: '#route',
        baseUrl: base,
        publicId: 'sales',
        keepAlive: true,
        session: () => 'unused',
      });
      await handle.ready;
      return { same: handle === window.early, status: handle.getState().status, in: handle.iframe?.parentElement?.id };
    }, embed.origin);
    expect(adopted).toEqual({ same: true, status: 'ready', in: 'route' });
    expect(minted).toBe(1);
    expect(errors).toEqual([]);
  });

// Found by h/attack round 2: a <platform-dashboard keep-alive> replaced by another of its name in
// one script (a list rendered again) left the first parked and made a second embed (the unit
// tests: packages/element/test/edgeAttacks.test.ts, packages/core/test/edgeAttacks.test.ts).
for (const build of ['development', 'production'])
  test(`${build} script: an element replaced by another of its keep-alive name in one script hands it its embed; a DOM move keeps it`, async ({
    page,
  }) => {
    minted = 0;
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${host.origin}/plain?build=${build}`);
    const result = await page.evaluate(async (base) => {
      const make = () => {
        const el = document.createElement('platform-dashboard') as HTMLElement & { handle: unknown; state: { status: string } };
        el.setAttribute('base-url', base);
        el.setAttribute('public-id', 'sales');
        el.setAttribute('keep-alive', '');
        el.setAttribute('session-url', '/session');
        el.style.cssText = 'display:block;width:300px;height:200px';
        return el;
      };
      const ready = (el: { state: { status: string } }) =>
        new Promise<void>((resolve) => {
          const poll = () => (el.state.status == 'ready' ? resolve() : setTimeout(poll, 20));
          poll();
        });
      const first = document.getElementById('a')!.appendChild(make());
      await ready(first);
      const handle = first.handle;
      const second = make();
      first.replaceWith(second);
      await new Promise((r) => setTimeout(r, 50));
      await ready(second);
      const adopted = {
        same: second.handle === handle,
        parked: PlatformEmbed.parkedCount(),
        frames: document.querySelectorAll('iframe').length,
      };
      document.getElementById('b')!.append(second);
      await new Promise((r) => setTimeout(r, 50));
      await ready(second);
      return { adopted, moved: { same: second.handle === handle, frames: document.querySelectorAll('iframe').length } };
    }, embed.origin);
    expect(result).toEqual({ adopted: { same: true, parked: 0, frames: 1 }, moved: { same: true, frames: 1 } });
    // The first frame lost its document when it was removed (no moveBefore for a removal): 2; the move: 3.
    expect(minted).toBe(3);
    expect(errors).toEqual([]);
  });

// Found by an adversarial review: an element moved into another document (a document of
// `document.implementation.createHTMLDocument()`, or a same-origin iframe's) and back into the page.
// Nothing is minted while it is out (its frame cannot work there); back in the page it loads again.
for (const build of ['development', 'production'])
  for (const into of ['an inert document', "a same-origin iframe's document"])
    test(`${build} script: an element moved into ${into} and back heals, nothing minted while out`, async ({ page }) => {
      minted = 0;
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${host.origin}/plain?build=${build}`);
      const result = await page.evaluate(
        async ([base, into]) => {
          const el = document.createElement('platform-dashboard') as HTMLElement & { state: { status: string; error?: { code: string } } };
          el.setAttribute('base-url', base!);
          el.setAttribute('public-id', 'sales');
          el.setAttribute('session-url', '/session');
          el.style.cssText = 'display:block;width:300px;height:200px';
          const states: string[] = [];
          el.addEventListener('platform-statechange', () => states.push(el.state.error?.code ?? el.state.status));
          const ready = (timeout = 5000) =>
            new Promise<string>((resolve) => {
              const end = Date.now() + timeout;
              const poll = () => (el.state.status == 'ready' || Date.now() > end ? resolve(el.state.status) : setTimeout(poll, 20));
              poll();
            });
          const sessions = async () => (await (await fetch('/session', { method: 'POST' })).json()).sessionId as string;
          document.getElementById('a')!.append(el);
          const first = await ready();
          let other: Document;
          if (into == 'an inert document') other = document.implementation.createHTMLDocument('other');
          else {
            const frame = document.body.appendChild(document.createElement('iframe'));
            other = frame.contentDocument!;
          }
          other.body.append(el);
          await new Promise((r) => setTimeout(r, 1000));
          const out = { status: el.state.status, code: el.state.error?.code, minted: await sessions() };
          document.getElementById('b')!.append(el);
          const back = await ready();
          return { first, out, back, minted: await sessions(), frames: el.querySelectorAll('iframe').length, states };
        },
        [embed.origin, into],
      );
      expect(result.first).toBe('ready');
      // Out of the page it cannot show (was: a session minted for a frame that could not work there).
      // (`sessions()` mints one itself: s2 means nothing was minted while out.)
      expect(result.out).toEqual({ status: 'error', code: 'no-container', minted: 's2' });
      // Back in the page, it heals with one fresh session (s3; was: in error until reload()).
      expect(result.back).toBe('ready');
      expect(result.frames).toBe(1);
      expect(result.minted).toBe('s4');
      expect(result.states).toEqual(['loading', 'ready', 'loading', 'no-container', 'loading', 'ready']);
      expect(errors).toEqual([]);
    });

// Found by h/attack3: the element's children are the page's too. A copy of a ready element
// (cloneNode: Turbo Drive's snapshot cache; its HTML parsed again: htmx's history) held a copy of
// its iframe, loading the spent session beside the copy's own frame; a framework writing the
// element's text took its iframe out, and it stayed `ready` with none: now it fails saying why
// (the unit tests: packages/element/test/edgeAttacks.test.ts and frameworks.test.tsx).
type El = HTMLElement & { state: { status: string } };
type ReadyPoll = { readyOf(el: El): Promise<string> };
for (const build of ['development', 'production'])
  test(`${build} script: a copied element shows one frame, its own; one whose frame the page took out fails, and reload() loads it`, async ({
    page,
  }) => {
    minted = 0;
    loaded = [];
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${host.origin}/plain?build=${build}`);
    // The element's status once ready, or what it is after 5 s (one poll for both steps below).
    await page.evaluate(() => {
      (window as unknown as ReadyPoll).readyOf = (el) =>
        new Promise<string>((resolve) => {
          const end = Date.now() + 5000;
          const poll = () => (el.state.status == 'ready' || Date.now() > end ? resolve(el.state.status) : setTimeout(poll, 20));
          poll();
        });
    });
    const cloned = await page.evaluate(async (base) => {
      const { readyOf: ready } = window as unknown as ReadyPoll;
      const a = document.getElementById('a')!;
      a.innerHTML = `<platform-dashboard base-url="${base}" public-id="sales" session-url="/session" style="display:block;width:300px;height:200px"></platform-dashboard>`;
      await ready(a.firstElementChild as El);
      const clone = document.getElementById('b')!.appendChild(a.firstElementChild!.cloneNode(true)) as El;
      return { status: await ready(clone), frames: clone.querySelectorAll('iframe').length };
    }, embed.origin);
    expect(cloned).toEqual({ status: 'ready', frames: 1 });
    // The copy is tidied as it is made: its copied iframe never loaded the spent session.
    expect(loaded).toEqual(['s1', 's2']);
    const parsed = await page.evaluate(async () => {
      const { readyOf: ready } = window as unknown as ReadyPoll;
      const a = document.getElementById('a')!;
      a.innerHTML = a.firstElementChild!.outerHTML;
      const el = a.firstElementChild as El;
      const copied = { status: await ready(el), frames: el.querySelectorAll('iframe').length };
      el.textContent = 'Loading…';
      await new Promise((r) => setTimeout(r, 500));
      const wiped = { status: el.state.status, code: (el.state as { error?: { code: string } }).error?.code };
      await (el as unknown as { reload(): Promise<unknown> }).reload();
      return { copied, wiped, reloaded: await ready(el), frames: el.querySelectorAll('iframe').length };
    });
    // The iframe taken out: the error, nothing minted for it by itself; reload() mints one.
    expect(parsed).toEqual({
      copied: { status: 'ready', frames: 1 },
      wiped: { status: 'error', code: 'no-container' },
      reloaded: 'ready',
      frames: 1,
    });
    // HTML parsed again inserts its iframe (which starts loading) before the element is upgraded:
    // the copy may have asked for the spent s1 before it went, never more.
    expect(loaded.filter((id) => id != 's1')).toEqual(['s2', 's3', 's4']);
    expect(minted).toBe(4);
    expect(errors).toEqual([]);
  });

// Found by h/attack3: a frame the browser loads again (its container moved with appendChild, no
// moveBefore) fails the embed with the SDK's own `fatal` error; with a session id string (no retry)
// the host's onError never heard it, and nothing was written to the console (the unit test:
// packages/core/test/edgeAttacks.test.ts).
for (const build of ['development', 'production'])
  test(`${build} script: an embed whose frame the browser loaded again (a move without moveBefore) tells onError`, async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${host.origin}/plain?build=${build}`);
    const result = await page.evaluate(async (base) => {
      const heard: unknown[] = [];
      const container = document.getElementById('a')!;
      container.style.cssText = 'width:300px;height:200px';
      const handle = PlatformEmbed.embedDashboard({
        container,
        baseUrl: base,
        publicId: 'sales',
        session: `once-${Date.now()}`,
        onError: (payload) => heard.push(payload),
      });
      await handle.ready;
      document.getElementById('b')!.appendChild(container);
      const end = Date.now() + 5000;
      while (handle.getState().status != 'error' && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      return { code: handle.getState().error?.code, heard };
    }, embed.origin);
    expect(result).toEqual({ code: 'fatal', heard: [expect.objectContaining({ name: 'EmbedError', context: 'fatal', fatal: true })] });
    expect(errors).toEqual([]);
  });

declare global {
  interface Window {
    bodyAtPreload?: string;
    thrown?: string;
    early?: unknown;
  }
  const PlatformEmbed: typeof import('@platform-embed/core');
}

// Trusted Types enforced by the host page (require-trusted-types-for 'script'; no policy may be
// made): the SDK gives no string to a DOM sink, so its elements, their error UI, parking and
// adoption work there, with no violation reported.
for (const build of ['development', 'production'])
  test(`${build} script: a page that enforces Trusted Types embeds, shows an error, parks and adopts, with no violation`, async ({
    page,
  }) => {
    minted = 0;
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.addInitScript(() => {
      (window as unknown as { violations: string[] }).violations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { violations: string[] }).violations.push(`${e.violatedDirective} ${e.sample}`),
      );
    });
    await page.goto(`${host.origin}/trusted-types?build=${build}`);
    const result = await page.evaluate(async (base) => {
      const enforced = (() => {
        try {
          document.createElement('div').innerHTML = '<b>x</b>';
          return false;
        } catch {
          return true;
        }
      })();
      const make = (publicId?: string) => {
        const el = document.createElement('platform-dashboard') as HTMLElement & { handle: unknown; state: { status: string } };
        el.setAttribute('base-url', base);
        if (publicId) el.setAttribute('public-id', publicId);
        el.setAttribute('keep-alive', '');
        el.setAttribute('session-url', '/session');
        el.style.cssText = 'display:block;width:300px;height:200px';
        // (The error UI the element fills: its message by textContent, no markup.)
        const failed = el.appendChild(document.createElement('div'));
        failed.slot = 'error';
        failed.hidden = true;
        failed.appendChild(document.createElement('span')).dataset.platformErrorMessage = '';
        return el;
      };
      const settled = (el: { state: { status: string } }) =>
        new Promise<string>((resolve) => {
          const poll = () => (el.state.status == 'ready' || el.state.status == 'error' ? resolve(el.state.status) : setTimeout(poll, 20));
          poll();
        });
      const good = document.getElementById('a')!.appendChild(make('sales'));
      const bad = document.getElementById('b')!.appendChild(make());
      const statuses = [await settled(good), await settled(bad)];
      const shown = bad.querySelector<HTMLElement>('[role=alert]');
      const alert = shown && !shown.hidden ? shown.textContent! : '';
      const handle = good.handle;
      good.remove();
      await new Promise((r) => setTimeout(r, 50));
      const parked = PlatformEmbed.parkedCount();
      const back = document.getElementById('a')!.appendChild(make('sales'));
      await settled(back);
      return { enforced, statuses, alert: alert.includes('public-id'), parked, adopted: back.handle === handle };
    }, embed.origin);
    expect(result).toEqual({ enforced: true, statuses: ['ready', 'error'], alert: true, parked: 1, adopted: true });
    // (The removed element's frame lost its document with it: the adopter loads it with a fresh session.)
    expect(minted).toBe(2);
    // (Only the test's own probe of the policy.)
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([
      'require-trusted-types-for Element innerHTML|<b>x</b>',
    ]);
    expect(errors).toEqual([]);
  });
