import { expect, test, type Frame, type Page } from '@playwright/test';
import { resolve } from 'node:path';
import { expectNothingParked } from '../packages/mock/src/playwright';
import { resilientEmbedPage } from './support/resilientEmbed';
import { startStaticServer, type RunningServer } from './support/staticServer';
import type { EmbedBinding, EmbedBindingOptions, EmbedHandle, Surface } from '@platform-embed/core';
import { figures } from './support/figures';

// Issue 22, the lot's half, in real Chromium: embeds belong to a viewer (keep-alive identity,
// viewer change, releaseEmbeds() across copies of the SDK), the lot's bounds, frames that lost
// their document (a replaced body, a parked frame navigated away, a reload outside the SDK),
// `ready` sticky for adopters, parked means quiet (focus, diagnostics, failing for good). The
// core's development and production builds (and the script tag's two files), imported by a host
// page on 127.0.0.1; the embed on localhost, a page it is navigated to on another origin.

/** The embed page, saying `ready` 50 ms after its load event (as a platform that authenticates first does) instead of while it parses. */
const saysReadyLate = (page: string) =>
  page
    .replace("post('ready'", "addEventListener('load', () => setTimeout(() => post('ready'")
    .replace(/\}\);\n<\/script>$/, '}), 50));\n</script>');

const coreDist = resolve(import.meta.dirname, '../packages/core/dist');
const elementDist = resolve(import.meta.dirname, '../packages/element/dist');
const BUILDS = {
  development: { core: '/core/index.development.mjs', tag: '/element/platform-embed.js' },
  production: { core: '/core/index.production.mjs', tag: '/element/platform-embed.min.js' },
} as const;
type Build = keyof typeof BUILDS;

type Sdk = typeof import('@platform-embed/core');
// (The options these tests mount are valid: a binding's mount returns the controller.)
type Core = Omit<Sdk, 'createBinding'> & {
  createBinding<S extends Surface>(): Omit<EmbedBinding<S>, 'mount'> & {
    mount(container: HTMLElement, options: EmbedBindingOptions<S>): EmbedHandle<S>;
  };
};
type Handle = ReturnType<Core['embedDashboard']>;
declare global {
  interface Window {
    sdk: Core;
    PlatformEmbed: Sdk;
    /** A session function fetching the host's /session. */
    session: () => Promise<{ sessionId: string }>;
    /** A new container in the body, 400×300. */
    box(id: string, parent?: Element): HTMLElement;
    /** Resolves once `handle` is ready. */
    whenReady(handle: Handle): Promise<unknown>;
    received: string[];
    viewerNavigate(path: string): void;
    marker?: string;
    keys?: string;
    [key: string]: unknown;
  }
}

// Every session minted by the host's backend, and every embed page served, in order (reset per test).
let minted: string[] = [];
let loads: string[] = [];
let host: RunningServer;
let embed: RunningServer;
let away: RunningServer;

const helpers = `
  window.session = async () => (await fetch('/session', { method: 'POST' })).json();
  window.box = (id, parent = document.body) => {
    const div = document.createElement('div');
    div.id = id;
    div.style.cssText = 'width:400px;height:300px';
    return parent.appendChild(div);
  };
  window.whenReady = (handle) => handle.ready;
`;

test.beforeAll(async () => {
  host = await startStaticServer({
    host: '127.0.0.1',
    mounts: { '/core/': coreDist, '/element/': elementDist },
    routes: (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/session') {
        const sessionId = `s${minted.length + 1}-${Math.random().toString(36).slice(2)}`;
        minted.push(sessionId);
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify({ sessionId }));
        return true;
      }
      if (url.pathname !== '/page') return false;
      const build = BUILDS[url.searchParams.get('build') as Build];
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(`<!doctype html><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,">
<body style="margin:0"><input id="host-input" aria-label="host input">
${url.searchParams.has('tag') ? `<script src="${build.tag}"></script>` : ''}
<script>${helpers}</script>
<script type="module">window.sdk = await import(${JSON.stringify(build.core)}); window.loaded = true;</script>`);
      return true;
    },
  });
  embed = await startStaticServer({
    host: 'localhost',
    routes: (req, res) => {
      if (!req.url?.startsWith('/embed/dashboard/')) return false;
      loads.push(req.url);
      res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
      const page = resilientEmbedPage(host.origin);
      res.end(req.url.startsWith('/embed/dashboard/late?') ? saysReadyLate(page) : page);
      return true;
    },
  });
  // Another origin (another port of localhost), where a parked frame is navigated: it posts nothing.
  away = await startStaticServer({ host: 'localhost', pages: { '/away': '<!doctype html><title>elsewhere</title><p>elsewhere</p>' } });
});
test.afterAll(async () => {
  await Promise.all([host?.close(), embed?.close(), away?.close()]);
});
test.beforeEach(() => {
  minted = [];
  loads = [];
});

/** Opens the host page with `build`'s core (and its script tag, with `tag`); returns the page's errors, uncaught and logged. */
async function open(page: Page, build: Build, tag = false) {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
  await page.goto(`${host.origin}/page?build=${build}${tag ? '&tag' : ''}`);
  await page.waitForFunction(() => window.loaded === true);
  // The build asked for: the development one explains a refused option, the production one names it.
  const message = await page.evaluate((base) => {
    try {
      window.sdk.embedDashboard({ container: '#nowhere', baseUrl: base, publicId: 'p1' });
    } catch (e) {
      return (e as Error).message;
    }
  }, embed.origin);
  expect(message).toBe(
    build === 'development'
      ? '[platform-embed] container "#nowhere" matches no element: render it before embedding, or pass the element itself'
      : '[platform-embed] container',
  );
  return errors;
}

/** The frame document of the iframe whose URL carries `session`. */
function frameOf(page: Page, session: string): Frame {
  const frame = page.frames().find((f) => f.url().includes(`session=${session}`));
  if (!frame) throw new Error(`no frame with session ${session}: ${page.frames().map((f) => f.url())}`);
  return frame;
}
const mark = (frame: Frame, marker: string) => frame.evaluate((value) => void (window.marker = value), marker);
const markerOf = (frame: Frame) => frame.evaluate(() => window.marker);
const slots = (page: Page) => page.locator('[data-platform-lot] > *');

for (const build of Object.keys(BUILDS) as Build[]) {
  test.describe(`${build} build`, () => {
    test('1. a parked embed is adopted only by its viewer; a new viewer reloads it with a fresh session, without the previous viewer’s place', async ({
      page,
    }) => {
      const errors = await open(page, build);
      await page.evaluate(async (base) => {
        const { createBinding } = window.sdk;
        const options = (viewer: string) => ({
          surface: 'dashboard' as const,
          baseUrl: base,
          publicId: 'sales',
          session: window.session,
          keepAlive: true,
          viewer,
        });
        const ann = createBinding<'dashboard'>();
        window.ann = ann.mount(window.box('ann'), options('ann'));
        await window.whenReady(window.ann as Handle);
        window.annBinding = ann;
        window.options = options;
      }, embed.origin);
      const annFrame = frameOf(page, minted[0]!);
      await mark(annFrame, 'ann');
      await annFrame.evaluate(() => window.viewerNavigate('/sales/ann-only'));
      await expect.poll(() => page.evaluate(() => (window.ann as Handle).iframe!.isConnected)).toBe(true);
      // Ann's route is left: parked.
      await page.evaluate(() => {
        (window.annBinding as ReturnType<Core['createBinding']>).unmount();
        document.getElementById('ann')!.remove();
      });
      await expect.poll(() => page.evaluate(() => window.sdk.parkedCount())).toBe(1);
      // Bob signs in (no page reload) and opens the same route: not Ann's embed.
      const bob = await page.evaluate(async () => {
        const options = window.options as (viewer: string) => object;
        const handle = window.sdk.createBinding<'dashboard'>().mount(window.box('bob'), options('bob') as never);
        await window.whenReady(handle);
        return { same: handle === window.ann, parked: window.sdk.parkedCount() };
      });
      expect(bob).toEqual({ same: false, parked: 1 });
      expect(minted).toHaveLength(2);
      expect(await markerOf(frameOf(page, minted[1]!))).toBeUndefined();
      // Ann's embed is adopted by Ann only: the same document.
      const again = await page.evaluate(() => {
        const options = window.options as (viewer: string) => object;
        const binding = window.sdk.createBinding<'dashboard'>();
        window.annAgain = binding;
        return binding.mount(window.box('ann-again'), options('ann') as never) === window.ann;
      });
      expect(again).toBe(true);
      expect(await markerOf(annFrame)).toBe('ann');
      expect(minted).toHaveLength(2);
      // Another viewer on the live embed: a fresh session, a new document that is not sent Ann's place.
      await page.evaluate(async () => {
        const handle = window.ann as Handle;
        handle.update({ viewer: 'carol' });
        await window.whenReady(handle);
      });
      expect(minted).toHaveLength(3);
      const carolFrame = frameOf(page, minted[2]!);
      await page.waitForTimeout(200);
      expect(await carolFrame.evaluate(() => window.received)).toEqual([]);
      expect(errors).toEqual([]);
    });

    test('1. releaseEmbeds() destroys every parked and preloaded embed of every copy of the SDK on the page (the module and the script tag), and nothing on screen; expectNothingParked() passes after', async ({
      page,
    }) => {
      const errors = await open(page, build, true);
      await page.evaluate(async (base) => {
        const { sdk, PlatformEmbed } = window;
        const options = { baseUrl: base, session: window.session };
        // A copy of the SDK of its own: the script tag's.
        if (PlatformEmbed.releaseEmbeds === sdk.releaseEmbeds) throw new Error('one copy only');
        const preloads = [
          sdk.preload('dashboard', { ...options, publicId: 'ours' }),
          PlatformEmbed.preload('dashboard', { ...options, publicId: 'theirs' }),
        ];
        const kept = sdk.createBinding<'dashboard'>();
        const parked = kept.mount(window.box('route'), { surface: 'dashboard', ...options, publicId: 'parked', keepAlive: true });
        const shown = PlatformEmbed.embedDashboard({ container: window.box('shown'), ...options, publicId: 'shown' });
        await Promise.all([...preloads, parked, shown].map(window.whenReady));
        kept.unmount();
        document.getElementById('route')!.remove();
        Object.assign(window, { preloads, parked, shown });
      }, embed.origin);
      await expect(slots(page)).toHaveCount(3);
      await expect(expectNothingParked(page, { timeout: 500 })).rejects.toThrow(/call releaseEmbeds\(\)/);
      const after = await page.evaluate(() => {
        window.sdk.releaseEmbeds();
        const { preloads, parked, shown } = window as unknown as { preloads: Handle[]; parked: Handle; shown: Handle };
        return {
          statuses: [...preloads, parked, shown].map((h) => h.getState().status),
          listeners: [window.sdk.listenerCount(), window.PlatformEmbed.listenerCount()],
          iframes: [...document.querySelectorAll('iframe')].map((iframe) => iframe.closest('div[id]')?.id),
        };
      });
      expect(after).toEqual({ statuses: ['destroyed', 'destroyed', 'destroyed', 'ready'], listeners: [0, 1], iframes: ['shown'] });
      await expectNothingParked(page);
      expect(errors).toEqual([]);
    });

    test('2. four identical keepAlive embeds unmounted together: four parked, each counted, bounded, adopted once; no orphan iframe', async ({
      page,
    }) => {
      const errors = await open(page, build);
      const parked = await page.evaluate(async (base) => {
        const { sdk } = window;
        sdk.configureParking({ max: 4 });
        const bindings = [0, 1, 2, 3].map(() => sdk.createBinding<'dashboard'>());
        const handles = bindings.map((b, i) =>
          b.mount(window.box(`k${i}`), { surface: 'dashboard', baseUrl: base, publicId: 'p1', session: window.session, keepAlive: true }),
        );
        await Promise.all(handles.map(window.whenReady));
        bindings.forEach((b) => b.unmount());
        await new Promise((r) => setTimeout(r));
        window.handles = handles;
        return { parked: sdk.parkedCount(), inLot: document.querySelectorAll('[data-platform-lot] iframe').length };
      }, embed.origin);
      expect(parked).toEqual({ parked: 4, inLot: 4 });
      const adopted = await page.evaluate((base) => {
        const handles = window.handles as Handle[];
        const again = [0, 1].map((i) =>
          window.sdk.createBinding<'dashboard'>().mount(window.box(`again${i}`), {
            surface: 'dashboard',
            baseUrl: base,
            publicId: 'p1',
            session: window.session,
            keepAlive: true,
          }),
        );
        return {
          adopted: again.filter((h) => handles.includes(h)).length,
          distinct: new Set(again).size,
          parked: window.sdk.parkedCount(),
        };
      }, embed.origin);
      expect(adopted).toEqual({ adopted: 2, distinct: 2, parked: 2 });
      expect(minted).toHaveLength(4);
      const bounded = await page.evaluate(() => {
        window.sdk.configureParking({ max: 1 });
        const one = { parked: window.sdk.parkedCount(), iframes: document.querySelectorAll('iframe').length };
        window.sdk.configureParking({ max: 0 });
        return [
          one,
          { parked: window.sdk.parkedCount(), iframes: document.querySelectorAll('iframe').length, routed: window.sdk.listenerCount() },
        ];
      });
      // Two shown, then one parked; then none parked: no iframe outside the two shown.
      expect(bounded).toEqual([
        { parked: 1, iframes: 3 },
        { parked: 0, iframes: 2, routed: 2 },
      ]);
      expect(errors).toEqual([]);
    });

    test('2. a preload of a dashboard on screen mints no second session (it returns the embed on screen); configureParking refuses what it cannot use; a refused preload leaves nothing', async ({
      page,
    }) => {
      const errors = await open(page, build);
      const result = await page.evaluate(async (base) => {
        const { sdk } = window;
        const shown = sdk
          .createBinding<'dashboard'>()
          .mount(window.box('c'), { surface: 'dashboard', baseUrl: base, publicId: 'p1', session: window.session, keepAlive: true });
        await window.whenReady(shown);
        const preloaded = sdk.preload('dashboard', { baseUrl: base, publicId: 'p1', session: window.session });
        const refused = [{ max: Number.NaN }, { max: Infinity }, { max: -1 }, { idle: Number.NaN }, { idle: -1 }, { idle: 'abc' }].map(
          (limits) => {
            try {
              sdk.configureParking(limits as never);
              return 'accepted';
            } catch (e) {
              return `${(e as { code: string }).code} ${Object.keys(limits)[0]} ${(e as Error).message.includes(Object.keys(limits)[0]!)}`;
            }
          },
        );
        const preloadErrors = [0, 1, 2].map(() => {
          try {
            sdk.preload('dashboard', { baseUrl: base, publicId: 'p2', readyTimeout: -1 });
          } catch (e) {
            return (e as { code: string }).code;
          }
        });
        return { same: preloaded === shown, refused, preloadErrors, slots: document.querySelectorAll('[data-platform-lot] > *').length };
      }, embed.origin);
      expect(result).toEqual({
        same: true,
        refused: [
          'invalid-option max true',
          'invalid-option max true',
          'invalid-option max true',
          'invalid-option idle true',
          'invalid-option idle true',
          'invalid-option idle true',
        ],
        preloadErrors: ['invalid-option', 'invalid-option', 'invalid-option'],
        slots: 0,
      });
      await page.waitForTimeout(300);
      expect(minted).toHaveLength(1);
      // idle past a timer's longest wait (2^31 ms overflows to 0 in a browser): clamped, the parked embed stays.
      const stays = await page.evaluate(async (base) => {
        const { sdk } = window;
        sdk.configureParking({ idle: 2 ** 31 });
        const handle = sdk.preload('dashboard', { baseUrl: base, publicId: 'p3', session: window.session });
        await window.whenReady(handle);
        sdk.configureParking({ idle: Infinity });
        await new Promise((r) => setTimeout(r, 300));
        return [handle.getState().status, sdk.parkedCount()];
      }, embed.origin);
      expect(stays).toEqual(['ready', 1]);
      expect(errors).toEqual([]);
    });

    for (const [swap, replace] of [
      ['document.body = new body', 'document.body = document.createElement("body")'],
      ['Turbo Drive (body.replaceWith)', 'document.body.replaceWith(document.createElement("body"))'],
      ['body.replaceChildren()', 'document.body.replaceChildren()'],
      ['an htmx-like swap (body.innerHTML)', 'document.body.innerHTML = "<main>swapped</main>"'],
    ] as const)
      test(`3. ${swap}: a parked and a preloaded embed stop being ready; adopted in the new body they load with a fresh session, never a DOM exception`, async ({
        page,
      }) => {
        const errors = await open(page, build);
        await page.evaluate(async (base) => {
          const { sdk } = window;
          const options = { surface: 'dashboard' as const, baseUrl: base, session: window.session, keepAlive: true };
          const preloaded = sdk.preload('dashboard', { baseUrl: base, publicId: 'pre', session: window.session });
          const kept = sdk.createBinding<'dashboard'>();
          const parked = kept.mount(window.box('route'), { ...options, publicId: 'kept' });
          await Promise.all([preloaded, parked].map(window.whenReady));
          kept.unmount();
          await new Promise((r) => setTimeout(r));
          Object.assign(window, { preloaded, parked, states: [] as string[] });
          for (const [name, h] of Object.entries({ preloaded, parked }))
            h.subscribe((s) => (window.states as string[]).push(`${name} ${s.status}`));
        }, embed.origin);
        expect(minted).toHaveLength(2);
        await page.evaluate(replace);
        await expect.poll(() => page.evaluate(() => (window.states as string[]).sort())).toEqual(['parked idle', 'preloaded idle']);
        const adopted = await page.evaluate(async (base) => {
          const options = { surface: 'dashboard' as const, baseUrl: base, session: window.session, keepAlive: true };
          const handles = ['pre', 'kept'].map((publicId) =>
            window.sdk.createBinding<'dashboard'>().mount(window.box(publicId), { ...options, publicId }),
          );
          await Promise.all(handles.map(window.whenReady));
          return {
            same: handles[0] === window.preloaded && handles[1] === window.parked,
            inContainers: handles.map((h) => h.iframe!.parentElement!.id),
            parked: window.sdk.parkedCount(),
          };
        }, embed.origin);
        expect(adopted).toEqual({ same: true, inContainers: ['pre', 'kept'], parked: 0 });
        expect(minted).toHaveLength(4);
        expect(errors).toEqual([]);
      });

    test('3. <platform-dashboard keep-alive> in a new body (Turbo Drive): it adopts the preload whose body went, loads with a fresh session, platform-ready once, never an error', async ({
      page,
    }) => {
      const errors = await open(page, build, true);
      await page.evaluate(async (base) => {
        const handle = window.PlatformEmbed.preload('dashboard', { baseUrl: base, publicId: 'p1', session: window.session });
        await window.whenReady(handle);
        window.preloaded = handle;
        // Turbo Drive: the next page's body, its markup parsed, replaces the body.
        const next = document.createElement('body');
        next.innerHTML = `<platform-dashboard base-url="${base}" public-id="p1" session-url="/session" keep-alive style="display:block;width:400px;height:300px"></platform-dashboard>`;
        const element = next.firstElementChild!;
        window.events = [] as string[];
        for (const type of ['platform-ready', 'platform-statechange'])
          element.addEventListener(type, (e) =>
            (window.events as string[]).push(type == 'platform-ready' ? type : (e as CustomEvent<{ status: string }>).detail.status),
          );
        document.body.replaceWith(next);
      }, embed.origin);
      await expect.poll(() => page.evaluate(() => (window.events as string[]).at(-1))).toBe('platform-ready');
      const result = await page.evaluate(() => {
        const element = document.querySelector('platform-dashboard') as unknown as { handle: Handle };
        return {
          same: element.handle === window.preloaded,
          events: window.events,
          inside: element.handle.iframe!.parentElement!.localName,
        };
      });
      expect(result).toEqual({ same: true, events: ['loading', 'ready', 'platform-ready'], inside: 'platform-dashboard' });
      expect(minted).toHaveLength(2);
      expect(errors).toEqual([]);
    });

    test('3. a parked frame navigated away to another origin stops being ready and heals with a fresh session within readyTimeout; adopted, it shows the tenant', async ({
      page,
    }) => {
      const errors = await open(page, build);
      await page.evaluate(async (base) => {
        const handle = window.sdk.preload('dashboard', { baseUrl: base, publicId: 'p1', session: window.session, readyTimeout: 1500 });
        await window.whenReady(handle);
        window.preloaded = handle;
        window.states = [] as string[];
        // When each state came, on the page's clock (the machine's, as the test's Date.now()): a
        // poll sees it up to a second later (its intervals grow to 1 s).
        window.statesAt = [] as number[];
        handle.subscribe((s) => ((window.states as string[]).push(s.status), (window.statesAt as number[]).push(Date.now())));
      }, embed.origin);
      const first = frameOf(page, minted[0]!);
      const navigatedAt = Date.now();
      await first.evaluate((url) => void (location.href = url), `${away.origin}/away`);
      await expect.poll(() => page.evaluate(() => window.states)).toEqual(['loading']);
      await expect.poll(() => page.evaluate(() => window.states), { timeout: 5000 }).toEqual(['loading', 'ready']);
      const healedAfter = (await page.evaluate(() => (window.statesAt as number[])[1]!)) - navigatedAt;
      expect(minted).toHaveLength(2);
      expect(healedAfter).toBeLessThan(1500 + 2000);
      const adopted = await page.evaluate(async (base) => {
        const handle = window.sdk
          .createBinding<'dashboard'>()
          .mount(window.box('c'), { surface: 'dashboard', baseUrl: base, publicId: 'p1', session: window.session, keepAlive: true });
        return { same: handle === window.preloaded, src: handle.iframe!.src, status: handle.getState().status };
      }, embed.origin);
      expect(adopted).toEqual({ same: true, src: `${embed.origin}/embed/dashboard/p1?session=${minted[1]}`, status: 'ready' });
      figures(`${build}: a parked frame navigated away healed after ${healedAfter} ms (readyTimeout 1500 ms)`);
      expect(errors).toEqual([]);
    });

    for (const [publicId, when] of [
      ['late', 'after its load event (as a platform that authenticates first)'],
      ['p1', 'before its load event'],
    ] as const)
      test(`3. a frame reloaded outside the SDK whose document says ready ${when}: not ready until it does; then it gets the kept state; no new session`, async ({
        page,
      }) => {
        const errors = await open(page, build);
        await page.evaluate(
          async ([base, publicId]) => {
            const handle = window.sdk.embedDashboard({
              container: window.box('c'),
              baseUrl: base!,
              publicId: publicId!,
              session: window.session,
            });
            await window.whenReady(handle);
            handle.setColorScheme('dark');
            window.handle = handle;
            window.states = [] as string[];
            handle.subscribe((s) => (window.states as string[]).push(s.status));
          },
          [embed.origin, publicId],
        );
        const frame = frameOf(page, minted[0]!);
        await expect.poll(() => frame.evaluate(() => window.received)).toEqual(['set-color-scheme {"scheme":"dark"}']);
        await frame.evaluate(() => location.reload());
        // (A document that said ready before its load event was never seen not ready: ready again at once.)
        await expect.poll(() => page.evaluate(() => window.states)).toEqual(publicId == 'late' ? ['loading', 'ready'] : ['ready']);
        await expect.poll(() => frame.evaluate(() => window.received)).toEqual(['set-color-scheme {"scheme":"dark"}']);
        await page.waitForTimeout(300);
        expect(await page.evaluate(() => window.states)).toEqual(publicId == 'late' ? ['loading', 'ready'] : ['ready']);
        expect(minted).toHaveLength(1);
        expect(loads).toHaveLength(2);
        expect(errors).toEqual([]);
      });

    test('8. ready is sticky for adopters: embed*() adopting a ready parked embed hears onReady once; the element adopting a ready preload dispatches platform-ready once', async ({
      page,
    }) => {
      const errors = await open(page, build, true);
      const result = await page.evaluate(async (base) => {
        const { sdk, PlatformEmbed } = window;
        const binding = sdk.createBinding<'dashboard'>();
        const parked = binding.mount(window.box('a'), {
          surface: 'dashboard',
          baseUrl: base,
          publicId: 'p1',
          session: window.session,
          keepAlive: 'sales',
        });
        await window.whenReady(parked);
        binding.unmount();
        await new Promise((r) => setTimeout(r));
        const readies: unknown[] = [];
        const adopted = sdk.embedDashboard({
          container: window.box('b'),
          baseUrl: base,
          publicId: 'p1',
          session: window.session,
          keepAlive: 'sales',
          onReady: (payload) => readies.push(payload),
        });
        const preloaded = PlatformEmbed.preload('dashboard', { baseUrl: base, publicId: 'p2', session: window.session });
        await window.whenReady(preloaded);
        const element = document.createElement('platform-dashboard');
        const events: string[] = [];
        element.addEventListener('platform-ready', () => events.push('platform-ready'));
        for (const [name, value] of Object.entries({ 'base-url': base, 'public-id': 'p2', 'session-url': '/session', 'keep-alive': '' }))
          element.setAttribute(name, value);
        document.body.append(element);
        await new Promise((r) => setTimeout(r, 100));
        return {
          same: adopted === parked,
          readies: readies.length,
          publicId: (readies[0] as { publicId?: string } | undefined)?.publicId,
          element: (element as unknown as { handle: Handle }).handle === preloaded,
          events,
        };
      }, embed.origin);
      expect(result).toEqual({ same: true, readies: 1, publicId: 'p1', element: true, events: ['platform-ready'] });
      expect(minted).toHaveLength(2);
      expect(errors).toEqual([]);
    });

    test('9. a parked frame that takes the focus from a timer gives it back: the viewer’s keystrokes reach the host’s input, none the frame', async ({
      page,
    }) => {
      const errors = await open(page, build);
      await page.evaluate(async (base) => {
        const handle = window.sdk.preload('dashboard', { baseUrl: base, publicId: 'p1', session: window.session });
        await window.whenReady(handle);
      }, embed.origin);
      const parked = frameOf(page, minted[0]!);
      await parked.evaluate(() => {
        const input = document.body.appendChild(document.createElement('input'));
        window.keys = '';
        addEventListener('keydown', (e) => (window.keys += e.key));
        setTimeout(() => (window.focus(), input.focus()), 300);
      });
      await page.getByLabel('host input').focus();
      await page.waitForTimeout(600);
      await page.keyboard.type('abc');
      await expect(page.getByLabel('host input')).toHaveValue('abc');
      expect(await parked.evaluate(() => window.keys)).toBe('');
      // With nothing focused in the host, the frame is blurred: the keys reach no one.
      await page.evaluate(() => (document.activeElement as HTMLElement).blur());
      await parked.evaluate(() => setTimeout(() => (window.focus(), document.querySelector('input')!.focus()), 100));
      await page.waitForTimeout(400);
      await page.keyboard.type('xyz');
      expect(await parked.evaluate(() => window.keys)).toBe('');
      expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
      expect(errors).toEqual([]);
    });

    test('9. a parked embed reports to whom the README says: diagnostics to its onDiagnostic, events to on() subscribers; failing for good, error then destroyed to its subscribers', async ({
      page,
    }) => {
      const errors = await open(page, build);
      await page.evaluate(async (base) => {
        const binding = window.sdk.createBinding<'dashboard'>();
        const log: string[] = [];
        const handle = binding.mount(window.box('a'), {
          surface: 'dashboard',
          baseUrl: base,
          publicId: 'p1',
          session: window.session,
          keepAlive: true,
          retry: false,
          onDiagnostic: (d) => log.push(`diagnostic ${d.kind}`),
          onNavigate: () => log.push('component onNavigate'),
        });
        await window.whenReady(handle);
        binding.unmount();
        await new Promise((r) => setTimeout(r));
        handle.on('navigate', () => log.push('on navigate'));
        handle.subscribe((s) => log.push(`state ${s.status}${s.error ? ' ' + s.error.code : ''}`));
        Object.assign(window, { log });
      }, embed.origin);
      const frame = frameOf(page, minted[0]!);
      await frame.evaluate(() => {
        parent.postMessage({ nonsense: true }, '*');
        window.viewerNavigate('/somewhere');
      });
      await expect.poll(() => page.evaluate(() => window.log)).toEqual(['diagnostic invalid-message', 'on navigate']);
      await frame.evaluate(() => (window as unknown as { fatal(m: string): void }).fatal('session expired'));
      await expect
        .poll(() => page.evaluate(() => window.log))
        .toEqual(['diagnostic invalid-message', 'on navigate', 'state error fatal', 'state destroyed']);
      expect(await page.evaluate(() => [window.sdk.parkedCount(), document.querySelectorAll('iframe').length])).toEqual([0, 0]);
      // No component shows it, and nothing hears `error`: the console says it, once (the rule of every embed's error).
      expect(errors).toEqual([expect.stringContaining('the embed failed: session expired')]);
    });

    test('9. <platform-dashboard keep-alive> removed: one platform-statechange (idle), parked; put back, the same handle', async ({
      page,
    }) => {
      const errors = await open(page, build, true);
      await page.evaluate(async (base) => {
        document.body.insertAdjacentHTML(
          'beforeend',
          `<platform-dashboard base-url="${base}" public-id="p1" session-url="/session" keep-alive style="display:block;width:400px;height:300px"></platform-dashboard>`,
        );
        const element = document.querySelector('platform-dashboard')!;
        await new Promise((r) => element.addEventListener('platform-ready', r, { once: true }));
        window.states = [] as string[];
        element.addEventListener('platform-statechange', (e) =>
          (window.states as string[]).push((e as CustomEvent<{ status: string }>).detail.status),
        );
        window.handle = (element as unknown as { handle: Handle }).handle;
        window.element = element;
        element.remove();
        await new Promise((r) => setTimeout(r, 200));
      }, embed.origin);
      expect(await page.evaluate(() => [window.states, window.PlatformEmbed.parkedCount()])).toEqual([['idle'], 1]);
      // Put back: the same handle, loaded again with a fresh session (the browser unloaded the frame on removal).
      const back = await page.evaluate(async () => {
        const element = window.element as HTMLElement & { handle: Handle };
        document.body.append(element);
        await new Promise((r) => element.addEventListener('platform-ready', r, { once: true }));
        return [element.handle === window.handle, window.states, window.PlatformEmbed.parkedCount()];
      });
      expect(back).toEqual([true, ['idle', 'loading', 'ready'], 0]);
      expect(minted).toHaveLength(2);
      expect(errors).toEqual([]);
    });
  });
}
