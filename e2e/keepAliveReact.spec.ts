import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { startMockPlatform, type MockPlatform } from '../packages/mock/src/index';
import type { KeepAliveApp } from './apps/keepAliveReact';
import {
  countEmbedLoads,
  embedFrame,
  enter,
  markDocument,
  markerOf,
  messageListeners,
  observers,
  pendingTimers,
  receivedActions,
  recordActions,
  watchPage,
  withoutMoveBefore,
  type RouteEntry,
} from './support/keepAlive';
import { expectNothingParked } from '../packages/mock/src/playwright';
import { runNode, scaffold, writeFiles, type Scaffold } from './support/scaffold';
import { startStaticServer, type RunningServer } from './support/staticServer';
import { figures as writeFigures } from './support/figures';

// Issue 16 in real Chromium, for React: the README's "Embeds that outlive their route" checked in
// a fresh React app (Vite, @vitejs/plugin-react, react-router 7, <StrictMode>) built from the
// packed packages, in a development build and a production build, driven from outside act().
// The host page is on 127.0.0.1, the mock platform on localhost. "The same frame document" is
// a marker set on the embed's window (Playwright evaluates inside the cross-origin frame) that
// is still there later; sessions are the mock's minted ones, loads the embed pages requested.

const MODES = ['development', 'production'] as const;
type Mode = (typeof MODES)[number];
const BASES: Record<Mode, string> = { development: 'dev', production: 'prod' };
const DIST: Record<Mode, string> = { development: 'dist-dev', production: 'dist-prod' };
/** How often the specs leave the dashboard's route and enter it again. */
const RETURNS = 3;
/** The action a new `colorScheme` sends. */
const SET_COLOR_SCHEME = 'platform:action:set-color-scheme';
/** The idle time of the parking case, in ms. */
const IDLE = 1000;

let fresh: Scaffold;
let appDir: string;
let platform: MockPlatform;
let host: RunningServer;
/** Measured figures, printed at the end (the report's table). */
const figures: Record<string, unknown>[] = [];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(600_000);
  fresh = scaffold();
  platform = await startMockPlatform({ host: 'localhost' });
  appDir = fresh.app('keep-alive-react');
  writeFiles(appDir, {
    'index.html': `<!doctype html><html><head><meta charset="utf-8"><title>keep-alive</title><link rel="icon" href="data:,"></head>
<body><div id="root"></div><script type="module" src="/main.tsx"></script></body></html>
`,
    'main.tsx': readFileSync(resolve(import.meta.dirname, 'apps/keepAliveReact.tsx'), 'utf8'),
    'vite.config.js': "import react from '@vitejs/plugin-react';\nexport default { plugins: [react()] };\n",
    // As Vite documents for a development build: NODE_ENV from the mode's .env file.
    '.env.development': 'NODE_ENV=development\n',
  });
  const vite = fresh.file('vite', 'bin/vite.js');
  runNode(vite, ['build', '--mode', 'development', '--outDir', DIST.development, '--base', '/dev/', '--logLevel', 'warn'], { cwd: appDir });
  runNode(vite, ['build', '--outDir', DIST.production, '--base', '/prod/', '--logLevel', 'warn'], { cwd: appDir });
  host = await startStaticServer({
    host: '127.0.0.1',
    routes: async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://host.invalid');
      // The host's backend: mints a session for the deployment the page asks for.
      if (url.pathname === '/api/session' && req.method === 'POST') {
        for await (const _ of req); // drain the (empty) body
        const deploymentId = Number(url.searchParams.get('deployment') ?? 1);
        const upstream = await fetch(platform.url('/api/v1/embed/generate-session'), {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Api-Key ${platform.apiKey}` },
          body: JSON.stringify({ deploymentId, externalId: 'jane@example.com' }),
        });
        res.writeHead(upstream.status, { 'content-type': 'application/json' });
        res.end(await upstream.text());
        return true;
      }
      // Each build is a single-page app: a route of its router (a path that names no built file) gets its index.html.
      const mode = MODES.find((name) => url.pathname.startsWith(`/${BASES[name]}/`));
      if (!mode || extname(url.pathname)) return false;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(readFileSync(join(appDir, DIST[mode], 'index.html')));
      return true;
    },
    // The builds' files.
    mounts: Object.fromEntries(MODES.map((mode) => [`/${BASES[mode]}/`, join(appDir, DIST[mode])])),
  });
});
test.afterAll(async () => {
  if (figures.length) writeFigures(`keep-alive figures (React):\n${figures.map((row) => JSON.stringify(row)).join('\n')}`);
  await Promise.all([platform?.close(), host?.close()]);
});
test.beforeEach(() => platform.reset());

type Win = Window & { ka: KeepAliveApp };

/** Opens a page of the app in `mode`, watched (see support/keepAlive.ts). */
async function open(page: Page, mode: Mode, path: string, query: Record<string, string | number> = {}) {
  // Uncaught errors, and errors logged (the SDK logs a handler that threw, React its warnings).
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
  await watchPage(page);
  const loads = countEmbedLoads(page, platform.origin);
  const search = new URLSearchParams({
    platform: platform.origin,
    ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
  });
  await page.goto(`${host.origin}/${BASES[mode]}/${path}?${search}`);
  // The build is the one asked for, under <StrictMode>: the app's mount effect runs twice in development.
  await expect.poll(() => page.evaluate(() => (window as unknown as Win).ka?.appEffects)).toBe(mode === 'development' ? 2 : 1);
  expect(await page.evaluate(() => (window as unknown as Win).ka.dev)).toBe(mode === 'development');
  return { loads, errors };
}

/** Reads (or does) something with the app's `window.ka`; `read` runs in the page, so it may use nothing of the spec's. */
const app = <T>(page: Page, read: (ka: KeepAliveApp) => T): Promise<T> => page.evaluate(`(${read.toString()})(window.ka)`);
const statusOf = (page: Page) => app(page, (ka) => ka.current?.getState().status ?? null);
const sessions = () => platform.sessions().length;
/**
 * What the mock and the browser saw: sessions minted (generate-session calls answered), sessions
 * used (embed pages the mock served with a session: each a frame document loaded), and embed pages
 * the browser requested (`loads`: a page loaded again with a spent session would add one here and
 * none to `used`).
 */
const seen = (loads: { readonly count: number }) => ({
  minted: platform.sessions().length,
  used: platform.sessions().filter((session) => session.usedAt !== undefined).length,
  loads: loads.count,
});
/** `n` of each: sessions minted and used, frame documents loaded. */
const times = (n: number) => ({ minted: n, used: n, loads: n });
/** The embed's readouts that the host's kept state sets. */
const readouts = (page: Page) => page.frameLocator('[data-platform-embed] iframe');
/** The page's parking lot (parking.ts). */
const lot = (page: Page) => page.locator('body > div[inert]');

/** The watches of hidden containers and parked frames (a marker element the browser tells when it leaves the document). */
const watches = (page: Page) => page.locator('platform-embed-watch');

/** The nothing-left-behind checks: no iframe, no routed listener, no `message` listener on window, no timer, observer or watch pending. */
async function expectNothingLeft(page: Page) {
  await expect(page.locator('iframe')).toHaveCount(0);
  expect(await app(page, (ka) => [ka.listenerCount(), ka.parkedCount()])).toEqual([0, 0]);
  expect(await messageListeners(page)).toBe(0);
  expect(await observers(page)).toEqual([]);
  await expect(watches(page)).toHaveCount(0);
  expect(await pendingTimers(page)).toEqual([]);
  // The lot holds no slot any more.
  await expect(lot(page).locator('*')).toHaveCount(0);
}

for (const mode of MODES) {
  test.describe(`${mode} build`, () => {
    test('<Activity> hidden then visible: one session, one iframe, the same document; a scheme set while hidden arrives as an action; removed, nothing is left', async ({
      page,
    }) => {
      const { loads, errors } = await open(page, mode, 'activity');
      await expect.poll(() => statusOf(page)).toBe('ready');
      const frame = await embedFrame(page);
      await markDocument(frame, 'activity');
      await recordActions(frame);
      expect(await messageListeners(page)).toBe(1);

      await page.getByTestId('hide').click();
      await expect(page.locator('[data-platform-embed]')).toBeHidden();
      // Hidden, not gone: the embed stays as it is, a watch waits for the container's real removal
      // (a marker in it; and one in the frame's slot in the lot), with no MutationObserver.
      await expect(page.locator('[data-platform-embed] > platform-embed-watch')).toHaveCount(1);
      expect(await observers(page)).toEqual([]);
      expect(await app(page, (ka) => ka.handles[0]!.getState().status)).toBe('ready');
      await expect(page.locator('iframe')).toHaveCount(1);
      // The prop changes while hidden (React committed it, outside the hidden subtree): a hidden
      // component's effects do not run, so the embed hears of it only when shown.
      await page.getByTestId('dark').click();
      await expect(page.getByTestId('scheme')).toHaveText('dark');
      expect(await receivedActions(frame)).not.toContain(SET_COLOR_SCHEME);
      // (Meanwhile the frame waits in the lot, where React cannot move it with the hidden subtree.)
      await expect(lot(page).locator('iframe')).toHaveCount(1);
      expect(await lot(page).frameLocator('iframe').getByTestId('color-scheme').textContent()).toBe('light');

      await page.getByTestId('show').click();
      await expect(readouts(page).getByTestId('color-scheme')).toHaveText('dark');
      expect(await markerOf(await embedFrame(page))).toBe('activity');
      expect((await receivedActions(frame)).filter((type) => type === SET_COLOR_SCHEME)).toHaveLength(1);
      expect(await app(page, (ka) => ka.handles.length)).toBe(1);
      await expect(watches(page)).toHaveCount(0);
      expect(seen(loads)).toEqual(times(1));

      // Hidden again, then the whole subtree removed: destroyed, nothing left.
      await page.getByTestId('hide').click();
      await expect(page.locator('[data-platform-embed] > platform-embed-watch')).toHaveCount(1);
      await page.getByTestId('remove').click();
      await expect.poll(() => app(page, (ka) => ka.handles[0]!.getState().status)).toBe('destroyed');
      await expectNothingLeft(page);
      expect(seen(loads)).toEqual(times(1));
      expect(errors).toEqual([]);
      figures.push({ case: 'activity', mode, ...seen(loads) });
    });

    /**
     * The dashboard route entered, the viewer's scheme and filter set, then left and entered
     * again RETURNS times; returns each entry after the first. `kept`: whether the viewer's
     * changes are in force on each return (kept by the same document, or replayed into a new one),
     * else the route shows a new embed as it starts.
     */
    async function goAndReturn(page: Page, label: string, kept: boolean, check: (round: number, entry: RouteEntry) => Promise<void>) {
      const first = await enter(page, 'to-sales');
      await markDocument(await embedFrame(page), 'first entry');
      await page.getByTestId('set-dark').click();
      await page.getByTestId('set-filter').click();
      await expect(readouts(page).getByTestId('color-scheme')).toHaveText('dark');
      await expect(readouts(page).getByTestId('active-filters')).toHaveText('orders.status = {"value":"completed"}');
      const returns: RouteEntry[] = [];
      for (let round = 1; round <= RETURNS; round++) {
        await page.getByTestId('to-settings').click();
        await expect(page.getByTestId('settings')).toBeVisible();
        await expect(page.locator('[data-platform-embed]')).toHaveCount(0);
        const entry = await enter(page, 'to-sales');
        await expect(readouts(page).getByTestId('color-scheme')).toHaveText(kept ? 'dark' : 'light');
        await expect(readouts(page).getByTestId('active-filters')).toHaveText(kept ? 'orders.status = {"value":"completed"}' : 'none');
        expect(entry.errorFrames).toBe(0);
        await check(round, entry);
        returns.push(entry);
      }
      expect(await app(page, (ka) => ka.statuses.some((status) => status.endsWith(':error')))).toBe(false);
      figures.push({ case: label, mode, first, returns });
      return returns;
    }

    test('React Router, keepAlive: left and entered 3 times, 1 session, the same document, the viewer state kept, ready on entering', async ({
      page,
    }) => {
      const { loads, errors } = await open(page, mode, 'keep/settings');
      await goAndReturn(page, 'router keepAlive', true, async (_round, entry) => {
        expect(await markerOf(await embedFrame(page))).toBe('first entry');
        expect(seen(loads)).toEqual(times(1));
        // Adopted ready: no loading UI in any frame drawn, ready within a frame or two of the click.
        expect(entry.busyFrames).toBe(0);
        expect(entry.errorFrames).toBe(0);
      });
      // One handle all along, which never loaded again after its first ready.
      expect(await app(page, (ka) => [ka.handles.length, ka.statuses.join(' ')])).toEqual([1, '0:loading 0:ready']);
      // `ready` is sticky: each component that adopted the ready embed heard its onReady once.
      expect(await app(page, (ka) => ka.readies)).toBe(1 + RETURNS);
      // While on the settings route the embed waits in the lot, off-screen at the size it had, hidden from assistive technology.
      await page.getByTestId('to-settings').click();
      const parked = lot(page).locator('iframe');
      await expect(parked).toHaveCount(1);
      await expect(lot(page)).toHaveAttribute('aria-hidden', 'true');
      const box = (await parked.boundingBox())!;
      expect([box.width, box.height]).toEqual([640, 400]);
      expect(box.x + box.width).toBeLessThanOrEqual(0);
      expect(await app(page, (ka) => [ka.listenerCount(), ka.parkedCount()])).toEqual([1, 1]);
      expect(await markerOf(await embedFrame(page, 'body > div[inert] iframe'))).toBe('first entry');
      expect(errors).toEqual([]);
    });

    test('React Router without keepAlive (the contrast): every return mints a session and loads a new document', async ({ page }) => {
      const { loads, errors } = await open(page, mode, 'plain/settings');
      await goAndReturn(page, 'router without keepAlive', false, async (round) => {
        expect(await markerOf(await embedFrame(page))).toBeUndefined();
        expect(seen(loads)).toEqual(times(1 + round));
      });
      expect(await app(page, (ka) => ka.handles.length)).toBe(1 + RETURNS);
      // Left for good: nothing of the last one is left either.
      await page.getByTestId('to-settings').click();
      await expect(page.getByTestId('settings')).toBeVisible();
      await expectNothingLeft(page);
      expect(errors).toEqual([]);
    });

    test("preload on hovering the link: the route adopts it ready, with the preload's session only and no new load", async ({ page }) => {
      const { loads, errors } = await open(page, mode, 'preload/settings');
      expect(sessions()).toBe(0);
      await page.getByTestId('to-sales').hover();
      await expect.poll(() => app(page, (ka) => ka.preloaded?.getState().status ?? null)).toBe('ready');
      expect(seen(loads)).toEqual(times(1));
      // Preloaded off-screen, in the lot.
      await markDocument(await embedFrame(page, 'body > div[inert] iframe'), 'preloaded');
      const entry = await enter(page, 'to-sales');
      expect(await app(page, (ka) => ka.handles.length === 1 && ka.handles[0] === ka.preloaded)).toBe(true);
      expect(await markerOf(await embedFrame(page))).toBe('preloaded');
      expect(seen(loads)).toEqual(times(1));
      expect(entry.busyFrames).toBe(0);
      expect(await app(page, (ka) => ka.statuses.join(' '))).toBe('0:ready');
      // The adopting component heard onReady, once.
      expect(await app(page, (ka) => ka.readies)).toBe(1);
      expect(errors).toEqual([]);
      figures.push({ case: 'preload', mode, entry, ...seen(loads) });
    });

    test('sign-out: releaseEmbeds() destroys the parked dashboard and the hovered preload; the next viewer gets embeds of their own, none of the first viewer’s state', async ({
      page,
    }) => {
      const { loads, errors } = await open(page, mode, 'preload/settings');
      await enter(page, 'to-sales');
      await page.getByTestId('set-dark').click();
      await expect(readouts(page).getByTestId('color-scheme')).toHaveText('dark');
      await page.getByTestId('to-settings').click();
      await expect(lot(page).locator('iframe')).toHaveCount(1);
      await page.getByTestId('sign-out').click();
      await expectNothingLeft(page);
      await expectNothingParked(page);
      // Bob signs in, without a page reload: hovering preloads his, entering shows it, with a session of its own.
      await page.getByTestId('sign-in-bob').click();
      await page.getByTestId('to-sales').hover();
      await expect.poll(() => app(page, (ka) => ka.preloaded?.getState().status ?? null)).toBe('ready');
      await enter(page, 'to-sales');
      expect(await app(page, (ka) => [ka.handles.length, ka.current === ka.preloaded, ka.handles[0]!.getState().status])).toEqual([
        2,
        true,
        'destroyed',
      ]);
      await expect(readouts(page).getByTestId('color-scheme')).toHaveText('light');
      expect(seen(loads)).toEqual(times(2));
      // He leaves and signs out too: nothing of his is left.
      await page.getByTestId('to-settings').click();
      await page.getByTestId('sign-out').click();
      await expectNothingLeft(page);
      expect(errors).toEqual([]);
    });

    test('another viewer without a sign-out: the parked dashboard of the first is not adopted by the second', async ({ page }) => {
      const { loads, errors } = await open(page, mode, 'keep/settings');
      await enter(page, 'to-sales');
      await page.getByTestId('set-dark').click();
      await expect(readouts(page).getByTestId('color-scheme')).toHaveText('dark');
      await page.getByTestId('to-settings').click();
      await page.getByTestId('sign-in-bob').click();
      await enter(page, 'to-sales');
      expect(await app(page, (ka) => [ka.handles.length, ka.current === ka.handles[1], ka.parkedCount()])).toEqual([2, true, 1]);
      await expect(readouts(page).getByTestId('color-scheme')).toHaveText('light');
      expect(seen(loads)).toEqual(times(2));
      expect(errors).toEqual([]);
    });

    test.describe('a page without moveBefore (as Safari today)', () => {
      test.beforeEach(({ page }) => withoutMoveBefore(page));

      test('keepAlive: parked cold (no frame), adopted by the same handle with a fresh session and the kept state replayed; no error', async ({
        page,
      }) => {
        const { loads, errors } = await open(page, mode, 'keep/settings');
        expect(await page.evaluate(() => 'moveBefore' in Element.prototype)).toBe(false);
        await goAndReturn(page, 'router keepAlive without moveBefore', true, async (round) => {
          expect(await markerOf(await embedFrame(page))).toBeUndefined();
          expect(seen(loads)).toEqual(times(1 + round));
        });
        // One handle, which went cold and loaded again once per return: no render loop (each turn of
        // one would change its state, and mint a session), no error state.
        expect(await app(page, (ka) => [ka.handles.length, ka.statuses.join(' ')])).toEqual([
          1,
          ['0:loading 0:ready', ...Array.from({ length: RETURNS }, () => '0:idle 0:loading 0:ready')].join(' '),
        ]);
        // Parked cold: the handle waits in the lot without a frame or a listener.
        await page.getByTestId('to-settings').click();
        await expect(page.getByTestId('settings')).toBeVisible();
        await expect(page.locator('iframe')).toHaveCount(0);
        expect(await app(page, (ka) => [ka.listenerCount(), ka.parkedCount(), ka.handles[0]!.getState().status])).toEqual([0, 1, 'idle']);
        expect(errors).toEqual([]);
      });

      test('preload waits for its adopter: nothing minted on hover, one session once the route shows it', async ({ page }) => {
        const { loads, errors } = await open(page, mode, 'preload/settings');
        await page.getByTestId('to-sales').hover();
        expect(await app(page, (ka) => ka.preloaded?.getState().status)).toBe('idle');
        await expect(page.locator('iframe')).toHaveCount(0);
        const entry = await enter(page, 'to-sales');
        // The preload minted nothing: the route's load is the only one.
        expect(seen(loads)).toEqual(times(1));
        expect(await app(page, (ka) => ka.handles[0] === ka.preloaded)).toBe(true);
        expect(errors).toEqual([]);
        figures.push({ case: 'preload without moveBefore', mode, entry });
      });
    });

    test('parking bounds, max 1: leaving the second kept-alive dashboard destroys the older one (iframe and listener gone); nothing left after', async ({
      page,
    }) => {
      const { errors } = await open(page, mode, 'bounds/settings', { max: 1 });
      await enter(page, 'to-a');
      await enter(page, 'to-b');
      // Sales waits in the lot, support is shown.
      await expect(page.locator('iframe')).toHaveCount(2);
      expect(await app(page, (ka) => [ka.listenerCount(), ka.parkedCount()])).toEqual([2, 1]);
      expect(await messageListeners(page)).toBe(1);
      await page.getByTestId('to-settings').click();
      await expect(page.getByTestId('settings')).toBeVisible();
      // Support parked, sales (the least recently parked) destroyed.
      await expect.poll(() => app(page, (ka) => ka.handles.map((handle) => handle.getState().status))).toEqual(['destroyed', 'ready']);
      await expect(page.locator('iframe')).toHaveCount(1);
      expect(await page.locator('iframe').getAttribute('src')).toContain('/embed/dashboard/support-health');
      expect(await app(page, (ka) => [ka.listenerCount(), ka.parkedCount()])).toEqual([1, 1]);
      // The one timer left is the parked support dashboard's idle timer (5 minutes by default): sales's went with it.
      expect((await pendingTimers(page)).map((timer) => timer.delay)).toEqual([300_000]);
      // A lower max destroys the rest at once.
      await app(page, (ka) => ka.configureParking({ max: 0 }));
      await expectNothingLeft(page);
      expect(sessions()).toBe(2);
      expect(errors).toEqual([]);
    });

    test(`parking bounds, idle ${IDLE} ms: a parked embed is destroyed once idle; nothing left after (no timer either)`, async ({
      page,
    }) => {
      const { errors } = await open(page, mode, 'bounds/settings', { idle: IDLE });
      await enter(page, 'to-a');
      const leftAt = Date.now();
      await page.getByTestId('to-settings').click();
      await expect(page.getByTestId('settings')).toBeVisible();
      // Parked: in the lot, with its idle timer pending (the watch sees the SDK's timers).
      await expect(lot(page).locator('iframe')).toHaveCount(1);
      expect((await pendingTimers(page)).map((timer) => timer.delay)).toEqual([IDLE]);
      await expect.poll(() => app(page, (ka) => ka.handles[0]!.getState().status)).toBe('destroyed');
      const destroyedAfter = Date.now() - leftAt;
      expect(destroyedAfter).toBeGreaterThanOrEqual(IDLE);
      await expectNothingLeft(page);
      expect(errors).toEqual([]);
      figures.push({ case: 'idle', mode, idle: IDLE, destroyedAfterMs: destroyedAfter });
    });
  });
}
