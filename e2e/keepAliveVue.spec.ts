import { expect, test, type Page } from '@playwright/test';
import { startMockPlatform, type MockPlatform } from '../packages/mock/src/index';
import {
  buildVueApp,
  countEmbedLoads,
  documentMark,
  frameOf,
  markDocument,
  messageListeners,
  serveHost,
  sessionOf,
  withoutMoveBefore,
  type KeptAppHooks,
  type Mode,
  type Variant,
} from './support/keepAliveVue';
import { scaffold } from './support/scaffold';
import type { RunningServer } from './support/staticServer';
import { figures as writeFigures } from './support/figures';

// Issue 16 in real Chromium, where users build: embeds that outlive their route, in a fresh Vue
// Router app built by Vite from the packed packages (development and production builds) and
// with the custom element's script-tag build (development and minified), against the mock
// platform on another origin. "The same document" is proven inside the cross-origin frame: a
// mark set on its window is read back after the route is entered again. The same cases run in a
// page without `Element.prototype.moveBefore` (as Safari today), where the README documents the
// fallback: parked cold, loaded again with a fresh session and the kept state, never an error.

let platform: MockPlatform;
const hosts = {} as Record<Mode, RunningServer>;
const MODES: Mode[] = ['development', 'production'];

/**
 * What one case measured: sessions minted, embed documents the browser requested (refused ones
 * too), embed pages the mock served with a session (each a frame document loaded), ms from
 * entering (or moving) until ready.
 */
interface Figure {
  case: string;
  build: Mode;
  moveBefore: boolean;
  sessions: number;
  loads: number;
  served: number;
  readyMs: number[];
}
const figures: Figure[] = [];

test.beforeAll(async () => {
  test.setTimeout(600_000);
  const fresh = scaffold();
  platform = await startMockPlatform({ host: 'localhost' });
  // Built once per mode; the app picks its variant from the URL at boot.
  for (const mode of MODES) hosts[mode] = await serveHost(buildVueApp(fresh, mode, platform.origin), platform);
});
test.afterAll(async () => {
  if (figures.length)
    writeFigures(
      [
        'case | build | moveBefore | sessions minted | embed documents requested | served by the mock | ms from entering to ready',
        ...figures.map((f) =>
          [f.case, f.build, f.moveBefore ? 'yes' : 'no', f.sessions, f.loads, f.served, f.readyMs.map(Math.round).join(', ')].join(' | '),
        ),
      ].join('\n'),
    );
  await Promise.all([platform?.close(), ...Object.values(hosts).map((host) => host.close())]);
});
test.beforeEach(() => platform.reset());

/** Records one case's figures (the table printed after the run), with the mock's counts now. */
const record = (name: string, build: Mode, moveBefore: boolean, loads: number, readyMs: number[]) =>
  figures.push({ case: name, build, moveBefore, sessions: minted().length, loads, served: served().length, readyMs });

/** The page's errors (uncaught, and console errors), to expect none. */
function errorsOf(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => void (message.type() == 'error' && errors.push(message.text())));
  return errors;
}

/** The sessions minted so far (generate-session calls answered), oldest first. */
const minted = () => platform.sessions().map(({ sessionId }) => sessionId);
/** The sessions the mock served an embed page with (each a frame document loaded; a spent one is refused and not counted), oldest first. */
const served = () => platform.sessions().flatMap(({ sessionId, usedAt }) => (usedAt === undefined ? [] : [sessionId]));

/** What is left of embeds on the page: iframes, routed frames (`listenerCount()`), parked embeds. */
const leftovers = (page: Page, hooks: 'keptApp' | 'PlatformEmbed') =>
  page.evaluate((name) => {
    const api = (window as unknown as Record<string, { listenerCount(): number; parkedCount(): number }>)[name]!;
    return { iframes: document.querySelectorAll('iframe').length, listeners: api.listenerCount(), parked: api.parkedCount() };
  }, hooks);

test.describe('Vue Router', () => {
  type AppWindow = Window & KeptAppHooks & { firstHandle: { destroy(): void; getState(): { status: string } } };

  // Clicks the link to /sales and waits, frame by frame, until the dashboard in the route's
  // container is ready: returns the ms from the click.
  const enterSales = (page: Page) =>
    page.evaluate(async () => {
      const view = window as unknown as AppWindow;
      const entered = performance.now();
      document.querySelector<HTMLAnchorElement>('nav a[href="/sales"]')!.click();
      for (;;) {
        await new Promise(requestAnimationFrame);
        // (A page mounted again has a new template ref: read at each frame.)
        if (document.querySelector('main [data-platform-embed] iframe') && view.sales.value?.state.status == 'ready')
          return performance.now() - entered;
        if (performance.now() - entered > 20_000) throw new Error(`not ready 20 s after entering /sales: ${view.keptApp.statuses}`);
      }
    });

  const leaveSales = async (page: Page) => {
    await page.getByRole('link', { name: 'Settings' }).click();
    await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  };

  /** Opens /sales with `variant`, waits for the dashboard, remembers its handle and marks its document. */
  async function openSales(page: Page, mode: Mode, variant: Variant) {
    const errors = errorsOf(page);
    const loads = countEmbedLoads(page, platform.origin);
    await page.goto(`${hosts[mode].origin}/sales?variant=${variant}`);
    await expect(page.frameLocator('main iframe').getByTestId('embed-root')).toHaveAttribute('data-state', 'ready');
    await page.evaluate(() => {
      const view = window as unknown as AppWindow;
      view.firstHandle = view.sales.value!.embed as AppWindow['firstHandle'];
    });
    await markDocument(await frameOf(page, 'main iframe'), 'first');
    return { errors, loads };
  }

  /**
   * Settings and back three times; on the second visit the viewer switches the color scheme on
   * the settings page. Per return: the ms until ready, the mark of the frame's document (null:
   * another document) and whether the dashboard has the handle it had first.
   */
  async function roundTrips(page: Page) {
    const returns: { readyMs: number; document: string | null; sameHandle: boolean }[] = [];
    for (let round = 1; round <= 3; round++) {
      await leaveSales(page);
      if (round == 2) await page.getByRole('button', { name: 'Dark' }).click();
      const readyMs = await enterSales(page);
      returns.push({
        readyMs,
        document: await documentMark(await frameOf(page, 'main iframe')),
        sameHandle: await page.evaluate(() => {
          const view = window as unknown as AppWindow;
          return view.sales.value!.embed === view.firstHandle;
        }),
      });
    }
    return returns;
  }

  /** Each embed document loaded (status and session), and each session minted: one load per session, never a spent one. */
  const expectOneLoadPerSession = (loads: { status: number; url: string }[], sessions: number) => {
    expect(minted()).toHaveLength(sessions);
    expect(served()).toEqual(minted());
    expect(loads.map(({ status, url }) => [status, sessionOf(url)])).toEqual(minted().map((id) => [200, id]));
  };

  for (const mode of MODES)
    for (const moves of [true, false])
      test.describe(`${mode} build, ${moves ? 'with moveBefore' : 'without moveBefore (as Safari)'}`, () => {
        test.beforeEach(async ({ page }) => {
          if (!moves) await page.addInitScript(withoutMoveBefore);
        });

        test(`<RouterView v-slot> + <KeepAlive>, no keepAlive option: settings and back 3 times, ${moves ? 'one session and the same frame document' : 'a fresh session per return (never the spent one), no error'}; a scheme switched away arrives; unmounting the app leaves nothing`, async ({
          page,
        }) => {
          const { errors, loads } = await openSales(page, mode, 'keep-alive-component');
          expect(await page.evaluate(() => 'moveBefore' in Element.prototype)).toBe(moves);
          const returns = await roundTrips(page);
          expect(returns.map(({ document, sameHandle }) => ({ document, sameHandle }))).toEqual(
            Array(3).fill({ document: moves ? 'first' : null, sameHandle: true }),
          );
          expectOneLoadPerSession(loads, moves ? 1 : 4);
          const embed = page.frameLocator('main iframe');
          // With moveBefore, the switch reached the kept document as an action (its last one); without, each
          // new document got the kept state replayed (the scheme, then the viewer's path).
          await expect(embed.getByTestId('color-scheme')).toHaveText('dark');
          await expect(embed.getByTestId('last-action')).toHaveText(moves ? 'set-color-scheme' : 'navigate');
          // Without moveBefore the deactivated embed is parked cold (idle), then loads again: never an error.
          const statuses = await page.evaluate(() => (window as unknown as AppWindow).keptApp.statuses);
          expect(statuses).toEqual(
            moves ? ['loading', 'ready'] : ['loading', 'ready', ...Array(3).fill(['idle', 'loading', 'ready']).flat()],
          );
          record(
            'Vue <KeepAlive>',
            mode,
            moves,
            loads.length,
            returns.map((r) => r.readyMs),
          );

          // Unmounting the app destroys it: no iframe, no routed frame, no message listener (CDP).
          const cdp = await page.context().newCDPSession(page);
          expect(await messageListeners(cdp)).toBe(1);
          await page.evaluate(() => (window as unknown as AppWindow).keptApp.unmount());
          await expect.poll(() => leftovers(page, 'keptApp')).toEqual({ iframes: 0, listeners: 0, parked: 0 });
          expect(await messageListeners(cdp)).toBe(0);
          expect(errors).toEqual([]);
        });

        test('<KeepAlive>: the app unmounted while the dashboard page is deactivated (its embed aside) leaves nothing', async ({
          page,
        }) => {
          const { errors } = await openSales(page, mode, 'keep-alive-component');
          await leaveSales(page);
          // Aside in the page's lot with its document, or (without moveBefore) dropped until activated.
          expect(await leftovers(page, 'keptApp')).toEqual(
            moves ? { iframes: 1, listeners: 1, parked: 0 } : { iframes: 0, listeners: 0, parked: 0 },
          );
          expect(await page.locator('main iframe').count()).toBe(0);
          const cdp = await page.context().newCDPSession(page);
          expect(await messageListeners(cdp)).toBe(moves ? 1 : 0);
          await page.evaluate(() => (window as unknown as AppWindow).keptApp.unmount());
          await expect.poll(() => leftovers(page, 'keptApp')).toEqual({ iframes: 0, listeners: 0, parked: 0 });
          expect(await messageListeners(cdp)).toBe(0);
          expect(await page.evaluate(() => (window as unknown as AppWindow).firstHandle.getState().status)).toBe('destroyed');
          expect(errors).toEqual([]);
        });

        test(`<RouterView>, the keep-alive prop: settings and back 3 times, the same handle ${moves ? 'with one session and the same frame document' : 'loaded again with a fresh session per return'}; destroy() on the parked handle leaves nothing`, async ({
          page,
        }) => {
          const { errors, loads } = await openSales(page, mode, 'keep-alive-prop');
          const returns = await roundTrips(page);
          expect(returns.map(({ document, sameHandle }) => ({ document, sameHandle }))).toEqual(
            Array(3).fill({ document: moves ? 'first' : null, sameHandle: true }),
          );
          expectOneLoadPerSession(loads, moves ? 1 : 4);
          // Adopted by the page mounted again, whose scheme is now dark: an action (or the replay of a new document).
          await expect(page.frameLocator('main iframe').getByTestId('color-scheme')).toHaveText('dark');
          const statuses = await page.evaluate(() => (window as unknown as AppWindow).keptApp.statuses);
          expect(statuses).not.toContain('error');
          record(
            'Vue keep-alive prop',
            mode,
            moves,
            loads.length,
            returns.map((r) => r.readyMs),
          );

          // Left: parked (with its frame where it can move), and still parked once the app is unmounted.
          await leaveSales(page);
          await page.evaluate(() => (window as unknown as AppWindow).keptApp.unmount());
          await expect.poll(() => leftovers(page, 'keptApp')).toEqual({ iframes: moves ? 1 : 0, listeners: moves ? 1 : 0, parked: 1 });
          const cdp = await page.context().newCDPSession(page);
          expect(await messageListeners(cdp)).toBe(moves ? 1 : 0);
          await page.evaluate(() => (window as unknown as AppWindow).firstHandle.destroy());
          expect(await leftovers(page, 'keptApp')).toEqual({ iframes: 0, listeners: 0, parked: 0 });
          expect(await messageListeners(cdp)).toBe(0);
          expect(errors).toEqual([]);
        });

        test('<RouterView> with neither (the contrast): each return mints a new session and loads a new document with a new handle', async ({
          page,
        }) => {
          const { errors, loads } = await openSales(page, mode, 'plain');
          const returns = await roundTrips(page);
          expect(returns.map(({ document, sameHandle }) => ({ document, sameHandle }))).toEqual(
            Array(3).fill({ document: null, sameHandle: false }),
          );
          expectOneLoadPerSession(loads, 4);
          await expect(page.frameLocator('main iframe').getByTestId('color-scheme')).toHaveText('dark');
          record(
            'Vue, neither (remount)',
            mode,
            moves,
            loads.length,
            returns.map((r) => r.readyMs),
          );
          expect(errors).toEqual([]);
        });
      });
});

test.describe('the custom element (script tag)', () => {
  type Dashboard = HTMLElement & { handle: object | null; state: { status: string }; setColorScheme(scheme: string): void };
  type ElementWindow = Window & {
    PlatformEmbed: { listenerCount(): number; parkedCount(): number };
    dashboard: Dashboard;
    firstHandle: object | null;
    states: string[];
  };
  type Change = 'moveBefore' | 'appendChild' | 'remove' | 'remove and re-insert';

  /** A `<platform-dashboard>` in #first of the host page, ready, with the color scheme set to dark and its document marked. */
  async function placeDashboard(page: Page, mode: Mode, keepAlive: boolean) {
    const errors = errorsOf(page);
    const loads = countEmbedLoads(page, platform.origin);
    await page.goto(`${hosts[mode].origin}/element-${mode}.html`);
    await page.evaluate(
      ([origin, keep]) => {
        const view = window as unknown as ElementWindow;
        const dashboard = document.createElement('platform-dashboard') as Dashboard;
        for (const [name, value] of Object.entries({
          'base-url': origin,
          'public-id': 'sales-overview',
          'session-url': '/api/embed-session',
        }))
          dashboard.setAttribute(name, value);
        if (keep) dashboard.setAttribute('keep-alive', '');
        dashboard.style.cssText = 'display:block;height:300px';
        view.states = [];
        dashboard.addEventListener('platform-statechange', (event) =>
          view.states.push((event as CustomEvent<{ status: string }>).detail.status),
        );
        view.dashboard = dashboard;
        document.querySelector('#first')!.append(dashboard);
      },
      [platform.origin, keepAlive] as const,
    );
    const embed = page.frameLocator('platform-dashboard iframe');
    await expect(embed.getByTestId('embed-root')).toHaveAttribute('data-state', 'ready');
    await page.evaluate(() => {
      const view = window as unknown as ElementWindow;
      view.firstHandle = view.dashboard.handle;
      view.dashboard.setColorScheme('dark');
    });
    await expect(embed.getByTestId('color-scheme')).toHaveText('dark');
    await markDocument(await frameOf(page, 'platform-dashboard iframe'), 'first');
    return { errors, loads };
  }

  /** Applies `change` to the dashboard; for a move or a re-insertion into #second, waits frame by frame until it is ready there and returns the ms it took. */
  const change = (page: Page, how: Change) =>
    page.evaluate(async (how) => {
      const { dashboard, PlatformEmbed } = window as unknown as ElementWindow;
      const second = document.querySelector('#second') as Element & { moveBefore(node: Node, child: Node | null): void };
      if (how == 'remove' || how == 'remove and re-insert') {
        dashboard.remove();
        if (how == 'remove') return null;
        // Later: once the element has let go of it (parked).
        while (!PlatformEmbed.parkedCount()) await new Promise(requestAnimationFrame);
      }
      const started = performance.now();
      if (how == 'moveBefore') second.moveBefore(dashboard, null);
      else second.appendChild(dashboard);
      for (;;) {
        await new Promise(requestAnimationFrame);
        if (dashboard.state.status == 'ready' && second.querySelector('platform-dashboard iframe')) return performance.now() - started;
        if (performance.now() - started > 20_000) throw new Error(`not ready 20 s after ${how}: ${dashboard.state.status}`);
      }
    }, how);

  /** The dashboard now: its handle (the first?), status, the statuses it reported, and what is left on the page. */
  const snapshot = (page: Page) =>
    page.evaluate(() => {
      const view = window as unknown as ElementWindow;
      return {
        sameHandle: view.dashboard.handle === view.firstHandle,
        status: view.dashboard.state.status,
        states: view.states,
        iframes: document.querySelectorAll('iframe').length,
        listeners: view.PlatformEmbed.listenerCount(),
        parked: view.PlatformEmbed.parkedCount(),
      };
    });

  for (const mode of MODES)
    for (const moves of [true, false])
      test.describe(`${mode === 'development' ? 'platform-embed.js' : 'platform-embed.min.js'}, ${moves ? 'with moveBefore' : 'without moveBefore (as Safari)'}`, () => {
        test.beforeEach(async ({ page }) => {
          if (!moves) await page.addInitScript(withoutMoveBefore);
        });

        if (moves)
          // (The same holds without the element's connectedMoveCallback: the browser then calls its
          // disconnected and connected callbacks in one task, a move the element defers past.)
          test('moved to another parent with moveBefore: the same document and handle, no session, no load', async ({ page }) => {
            const { errors, loads } = await placeDashboard(page, mode, false);
            const readyMs = await change(page, 'moveBefore');
            expect(await documentMark(await frameOf(page, '#second platform-dashboard iframe'))).toBe('first');
            expect(await snapshot(page)).toEqual({
              sameHandle: true,
              status: 'ready',
              states: ['loading', 'ready'],
              iframes: 1,
              listeners: 1,
              parked: 0,
            });
            expect(minted()).toHaveLength(1);
            expect(served()).toEqual(minted());
            expect(loads).toHaveLength(1);
            record('element moveBefore', mode, moves, loads.length, [readyMs!]);
            expect(errors).toEqual([]);
          });

        test('moved to another parent with appendChild: the same handle; the browser loads the frame again (with the spent URL), the element loads it with a fresh session and the scheme, never an error', async ({
          page,
        }) => {
          const { errors, loads } = await placeDashboard(page, mode, false);
          const readyMs = await change(page, 'appendChild');
          expect(await documentMark(await frameOf(page, '#second platform-dashboard iframe'))).toBeNull();
          expect(sessionOf((await page.locator('#second platform-dashboard iframe').getAttribute('src'))!)).toBe(minted()[1]);
          await expect(page.frameLocator('#second platform-dashboard iframe').getByTestId('color-scheme')).toHaveText('dark');
          expect(await snapshot(page)).toEqual({
            sameHandle: true,
            status: 'ready',
            states: ['loading', 'ready', 'loading', 'ready'],
            iframes: 1,
            listeners: 1,
            parked: 0,
          });
          expect(minted()).toHaveLength(2);
          // The mock served an embed page with each session once (it refuses a spent one).
          expect(served()).toEqual(minted());
          // Each session loaded once; the browser's own request of the moved iframe's URL (the
          // spent session) may answer before the element replaces the frame: never shown, never another.
          const [first, second] = minted();
          const loaded = loads.map(({ status, url }) => [status, sessionOf(url)]);
          expect(loaded.filter(([status]) => status == 200)).toEqual([
            [200, first],
            [200, second],
          ]);
          const refused = loaded.length == 3;
          expect(loaded.filter(([status]) => status != 200)).toEqual(refused ? [[401, first]] : []);
          record('element appendChild move', mode, moves, loads.length, [readyMs!]);
          // (Chromium may log that answer, when it came before the frame was replaced.)
          const refusedLog = 'Failed to load resource: the server responded with a status of 401 (Unauthorized)';
          expect(errors.filter((error) => !refused || error != refusedLog)).toEqual([]);
        });

        test('keep-alive, removed and re-inserted later: the same handle and its state, loaded again with a fresh session (the browser unloaded the frame on removal), never an error', async ({
          page,
        }) => {
          const { errors, loads } = await placeDashboard(page, mode, true);
          const readyMs = await change(page, 'remove and re-insert');
          expect(await documentMark(await frameOf(page, '#second platform-dashboard iframe'))).toBeNull();
          await expect(page.frameLocator('#second platform-dashboard iframe').getByTestId('color-scheme')).toHaveText('dark');
          const now = await snapshot(page);
          expect(now).toMatchObject({ sameHandle: true, status: 'ready', iframes: 1, listeners: 1, parked: 0 });
          // Parked cold while removed (idle), then loading and ready again.
          expect(now.states.filter((state) => state != 'idle')).toEqual(['loading', 'ready', 'loading', 'ready']);
          expect(now.states).toContain('idle');
          expect(minted()).toHaveLength(2);
          expect(served()).toEqual(minted());
          expect(loads.map(({ status, url }) => [status, sessionOf(url)])).toEqual(minted().map((id) => [200, id]));
          record('element keep-alive re-inserted', mode, moves, loads.length, [readyMs!]);
          expect(errors).toEqual([]);
        });

        test('without keep-alive, removal destroys: no iframe, no routed frame, no message listener (CDP)', async ({ page }) => {
          const { errors } = await placeDashboard(page, mode, false);
          const cdp = await page.context().newCDPSession(page);
          expect(await messageListeners(cdp)).toBe(1);
          await change(page, 'remove');
          await expect
            .poll(() => snapshot(page))
            .toEqual({
              sameHandle: false,
              status: 'destroyed',
              states: ['loading', 'ready', 'destroyed'],
              iframes: 0,
              listeners: 0,
              parked: 0,
            });
          expect(await messageListeners(cdp)).toBe(0);
          expect(minted()).toHaveLength(1);
          expect(errors).toEqual([]);
        });
      });
});
