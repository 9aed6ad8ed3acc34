import { expect, test, type Page, type Request } from '@playwright/test';
import { createServer } from 'node:net';
import { buildIfStale, startNextHost, type RunningNextHost } from '../examples/next/server.mjs';
import { startMockPlatform, type MockPlatform } from '../packages/mock/src/index';
import { embedFrame, mark, markOf, navigate, watchEmbedLoads, watchRenders } from './support/nextRoutes';
import { figures } from './support/figures';

// The Next.js App Router host (examples/next) as in production: `next build` (here only when the
// build is missing or older than its sources; `pnpm e2e` builds the examples first), then
// `next start`. It runs with `cacheComponents: true`, as `create-next-app` 16.4 writes it: a
// prerendered shell, and inside <Suspense> a server component that mints the first session while
// rendering the page (`initialSession`); later loads call its Server Action. The mock platform runs
// on localhost, the host on 127.0.0.1: two origins.

type Logged = { event: string; payload: Record<string, unknown> };
const logged = (page: Page): Promise<Logged[]> =>
  page
    .locator('[data-testid="event-log"] li[data-event]')
    .evaluateAll((items) =>
      items.map((li) => ({ event: (li as HTMLElement).dataset.event!, payload: JSON.parse(li.textContent || '{}') })),
    );
/** The host's own entries in its log: one per click on an action button (examples/shared/CONTRACT.md). */
const hostActions = (page: Page) =>
  page.locator('[data-testid="event-log"] li[data-action]').evaluateAll((items) =>
    items.map((li) => ({
      action: (li as HTMLElement).dataset.action!,
      sent: (li as HTMLElement).dataset.sent!,
      payload: JSON.parse(li.textContent || '{}'),
    })),
  );
/** What each button of a demo host sends: the action and its payload as the protocol carries them, or a reload. */
const SENT: Record<string, [string, Record<string, unknown>]> = {
  'scheme-dark': ['set-color-scheme', { scheme: 'dark' }],
  'scheme-light': ['set-color-scheme', { scheme: 'light' }],
  theme: ['set-theme', { primaryColor: '#e4572e', borderRadius: 12 }],
  locale: ['set-locale', { locale: 'es-MX' }],
  filter: ['set-filter', { filterUrlParameter: 'f_orders.status={"value":"completed"}' }],
  navigate: ['navigate', { path: '/widgets/revenue' }],
  refresh: ['refresh', {}],
  reload: ['reload', {}],
};
const names = async (page: Page) => (await logged(page)).map((e) => e.event);
const sessionOf = (src: string | null) => (src ? new URL(src).searchParams.get('session') : null);
const iframeSession = async (page: Page) => sessionOf(await page.locator('#embed iframe').getAttribute('src'));

const freePort = () =>
  new Promise<number>((done, fail) => {
    const probe = createServer();
    probe.once('error', fail).listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });

/** The Server Action calls of a page: Next.js posts them to the page with a `Next-Action` header. */
function watchActions(page: Page): Request[] {
  const calls: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.headers()['next-action']) calls.push(request);
  });
  return calls;
}

let platform: MockPlatform;
let host: RunningNextHost;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  buildIfStale();
  platform = await startMockPlatform({ host: 'localhost' });
  host = await startNextHost({
    platform: { baseUrl: platform.origin, apiKey: platform.apiKey, deploymentId: 1, publicId: 'sales-overview' },
  });
});
test.afterAll(async () => {
  await host?.close();
  await platform?.close();
});
test.beforeEach(() => platform.reset());

const open = async (page: Page) => {
  const response = await page.goto(`${host.origin}/`);
  await expect(page.getByTestId('status')).toHaveText('ready');
  await expect.poll(() => names(page)).toContain('dashboard-loaded');
  return { response: response!, frame: page.frameLocator('#embed iframe') };
};

test('the first load uses the session minted while the server rendered the page: no Server Action call, one session per page view', async ({
  page,
}) => {
  const actions = watchActions(page);
  const { response } = await open(page);

  // The page carries a single-use session: Next.js must answer it as never cacheable or shareable.
  const cacheControl = response.headers()['cache-control'] ?? '';
  expect(cacheControl).toContain('no-store');
  expect(cacheControl).toContain('private');

  const sessions = platform.sessions();
  expect(sessions).toHaveLength(1);
  const [minted] = sessions;
  expect(minted!.usedAt).toBeDefined();
  expect(await iframeSession(page)).toBe(minted!.sessionId);
  // Minted by the server component: it is in the HTML the server answered.
  expect(await response.text()).toContain(minted!.sessionId);
  await expect(page.getByTestId('initial-session')).toHaveText('minted on the server');
  expect(actions).toHaveLength(0);

  const events = await names(page);
  expect(events[0]).toBe('ready');
  expect(events.filter((e) => e == 'ready')).toHaveLength(1);

  // A second page view: a new server-rendered session, still no action call (and no double mint).
  await page.reload();
  await expect(page.getByTestId('status')).toHaveText('ready');
  await expect.poll(() => names(page)).toContain('dashboard-loaded');
  expect(platform.sessions()).toHaveLength(2);
  expect(await iframeSession(page)).toBe(platform.sessions()[1]!.sessionId);
  expect(actions).toHaveLength(0);
  expect(host.output()).not.toMatch(/error/i);
});

test('the declarative props change the same iframe: no reload, no new session', async ({ page }) => {
  const actions = watchActions(page);
  const { frame } = await open(page);
  const iframe = page.locator('#embed iframe');
  const src = await iframe.getAttribute('src');
  await iframe.evaluate((element) => (element.dataset.original = 'yes'));

  await page.click('[data-action="scheme-dark"]');
  await expect(frame.getByTestId('color-scheme')).toHaveText('dark');
  await page.click('[data-action="scheme-light"]');
  await expect(frame.getByTestId('color-scheme')).toHaveText('light');
  await page.click('[data-action="scheme-dark"]');
  await expect(frame.getByTestId('color-scheme')).toHaveText('dark');
  await page.click('[data-action="theme"]');
  await expect(frame.getByTestId('theme-primary')).toHaveText('#e4572e');
  await page.click('[data-action="locale"]');
  await expect(frame.getByTestId('locale')).toHaveText('es-MX');
  await page.click('[data-action="filter"]');
  await expect(frame.getByTestId('active-filters')).toHaveText('orders.status = {"value":"completed"}');
  await page.click('[data-action="refresh"]');
  await expect(frame.getByTestId('refresh-count')).toHaveText('1');
  await expect(frame.getByTestId('rejected-actions')).toHaveText('0');

  // The same iframe element and URL, one session, one ready, no Server Action call.
  await expect(page.locator('#embed iframe')).toHaveCount(1);
  expect(await iframe.evaluate((element) => element.dataset.original)).toBe('yes');
  expect(await iframe.getAttribute('src')).toBe(src);
  expect(platform.sessions()).toHaveLength(1);
  expect((await names(page)).filter((e) => e == 'ready')).toHaveLength(1);
  expect(actions).toHaveLength(0);
  await expect(page.getByTestId('status')).toHaveText('ready');
  // Every click is in the host's log, with what it sent.
  expect(await hostActions(page)).toEqual(
    ['scheme-dark', 'scheme-light', 'scheme-dark', 'theme', 'locale', 'filter', 'refresh'].map((action) => ({
      action,
      sent: SENT[action]![0],
      payload: SENT[action]![1],
    })),
  );
});

test('no request of the page fails: its icon is served (no /favicon.ico 404)', async ({ page }) => {
  const failed: string[] = [];
  page.on('response', (response) => response.status() >= 400 && failed.push(`${response.status()} ${response.url()}`));
  await open(page);
  const icon = await page.locator('link[rel="icon"]').first().getAttribute('href');
  expect(icon).toBeTruthy();
  expect((await page.request.get(new URL(icon!, host.origin).href)).status()).toBe(200);
  expect(failed).toEqual([]);
});

test('"Go to revenue" brings the embed there every time, also after the viewer navigated away in it', async ({ page }) => {
  const { frame } = await open(page);
  const path = frame.getByTestId('current-path');
  for (let round = 0; round < 3; round++) {
    await page.click('[data-action="navigate"]');
    await expect(path).toHaveText('/widgets/revenue');
    // The viewer moves on inside the embed (its own navigation, reported by a `navigate` event).
    await frame.getByTestId('navigate').click();
    await expect(path).not.toHaveText('/widgets/revenue');
  }
  await expect(frame.getByTestId('rejected-actions')).toHaveText('0');
  expect(platform.sessions()).toHaveLength(1);
});

test('reload() mints a new session through the Server Action and keeps the color scheme', async ({ page }) => {
  const actions = watchActions(page);
  const { frame } = await open(page);
  await page.click('[data-action="scheme-dark"]');
  await expect(frame.getByTestId('color-scheme')).toHaveText('dark');
  const first = await iframeSession(page);

  await page.click('[data-action="reload"]');
  await expect.poll(() => iframeSession(page)).not.toBe(first);
  await expect(page.getByTestId('status')).toHaveText('ready');
  expect(actions).toHaveLength(1);
  expect(actions[0]!.url()).toBe(`${host.origin}/`);
  const sessions = platform.sessions();
  expect(sessions).toHaveLength(2);
  expect(await iframeSession(page)).toBe(sessions[1]!.sessionId);
  expect(sessions.every((s) => s.usedAt !== undefined)).toBe(true);
  expect((await names(page)).filter((e) => e == 'ready')).toHaveLength(2);
  await expect(page.frameLocator('#embed iframe').getByTestId('color-scheme')).toHaveText('dark');
});

test('an unreachable platform: the page still renders, and the Server Action shows its cause in the page', async ({ page }) => {
  test.setTimeout(60_000);
  const closedPort = await freePort();
  const closed = `http://localhost:${closedPort}`;
  const unreachable = await startNextHost({
    platform: { baseUrl: closed, apiKey: platform.apiKey, deploymentId: 1, publicId: 'sales-overview' },
  });
  try {
    const actions = watchActions(page);
    await page.goto(`${unreachable.origin}/`);
    await expect(page.getByTestId('initial-session')).toHaveText('none');
    // The first load and its retries call the action (about 2-4 s of backoff), then the cause shows.
    await expect(page.getByTestId('status')).toHaveText('error', { timeout: 20_000 });
    const failure = page.getByTestId('embed-error');
    await expect(failure).toContainText('the session action failed');
    await expect(failure).toContainText(`could not reach ${closed}`);
    await expect(failure).not.toContainText(platform.apiKey);
    expect(actions.length).toBeGreaterThan(1);
  } finally {
    await unreachable.close();
  }
});

test("a failed server-side mint (the platform down): the page renders, no React error, and the embed's error UI says why", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const closed = `http://localhost:${await freePort()}`;
  const down = await startNextHost({
    platform: { baseUrl: closed, apiKey: platform.apiKey, deploymentId: 1, publicId: 'sales-overview' },
  });
  try {
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const response = await page.goto(`${down.origin}/`);
    expect(response!.status()).toBe(200);
    // The minting component rendered (without initialSession), not Next.js's error page.
    await expect(page.getByTestId('initial-session')).toHaveText('none');
    await expect(page.getByTestId('status')).toHaveText('error', { timeout: 20_000 });
    const failure = page.getByTestId('embed-error');
    await expect(failure).toContainText(/While rendering the page: .*could not reach/);
    await expect(failure).toContainText(closed);
    await expect(page.locator('body')).not.toContainText('Application error');
    expect(pageErrors.filter((message) => /React error|#441/.test(message))).toEqual([]);
    expect(down.output()).toMatch(/Next\.js host, first session: .*could not reach/);
  } finally {
    await down.close();
  }
});

// ---- Leaving the dashboard and coming back ----
//
// With cacheComponents Next.js keeps the routes a viewer left rendered, hidden (React's
// <Activity mode="hidden">), up to 3 per level, most recently shown first: going to a route it
// keeps reorders them, and React moves the DOM of the routes hidden (between two routes: each
// time one is left but the first). The embed must come through as it was: the same frame
// document, its session, the viewer's place in it and the host's state, ready at once.

const toSettings = (page: Page) => navigate(page, '/settings', '[data-testid=settings]');
const toDashboard = (page: Page) => navigate(page, '/', '#embed iframe', '[data-testid=status]');

test('dashboard → settings → dashboard 3 times: one session, one iframe and one frame document, the place and the scheme kept, ready at once', async ({
  page,
}) => {
  const actions = watchActions(page);
  const loads = watchEmbedLoads(page, platform.origin);
  const renders = watchRenders(page, host.origin, '/');
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const { frame } = await open(page);
  const embed = embedFrame(page, platform.origin);
  await mark(embed, 'the first document');
  // The host's state and the viewer's place in the embed.
  await page.click('[data-action="scheme-dark"]');
  await expect(frame.getByTestId('color-scheme')).toHaveText('dark');
  await frame.getByTestId('navigate').click();
  const place = await frame.getByTestId('current-path').textContent();
  expect(place).not.toBe('/');

  const returns: number[] = [];
  for (let round = 0; round < 3; round++) {
    await toSettings(page);
    await expect(page.locator('#embed')).toBeHidden();
    // Hidden, not gone: the frame waits in the page (in the SDK's lot), still ready.
    await expect(page.locator('iframe')).toHaveCount(1);
    await expect(page.getByTestId('status')).toHaveText('ready');
    const back = await toDashboard(page);
    // Ready at once: the embed was ready at the first frame it was visible again.
    expect(back.statuses).toEqual(['ready']);
    returns.push(back.ms);
    expect(await markOf(embed)).toBe('the first document');
    await expect(frame.getByTestId('current-path')).toHaveText(place!);
    await expect(frame.getByTestId('color-scheme')).toHaveText('dark');
  }
  // Actions still reach the same document.
  await page.click('[data-action="refresh"]');
  await expect(frame.getByTestId('refresh-count')).toHaveText('1');
  await expect(frame.getByTestId('rejected-actions')).toHaveText('0');

  expect(platform.sessions()).toHaveLength(1);
  expect(loads).toEqual(['/embed/dashboard/sales-overview']);
  await expect(page.locator('iframe')).toHaveCount(1);
  expect((await names(page)).filter((e) => e == 'ready')).toHaveLength(1);
  expect(actions).toHaveLength(0);
  // The page's unstable_dynamicStaleTime: coming back renders nothing on the server, so mints nothing.
  expect(renders).toEqual([]);
  expect(errors).toEqual([]);
  figures(`next start: back on the dashboard, visible and ready in ${returns.join(', ')} ms`);
  // Generous for a loaded 2-core machine; measured 20-150 ms.
  for (const ms of returns) expect(ms).toBeLessThan(2_000);
});

test('without moveBefore (Safari): the hidden route moved by React reloads its frame; the embed notices and loads again with a fresh session and its state', async ({
  page,
}) => {
  await page.addInitScript(() => delete (Element.prototype as { moveBefore?: unknown }).moveBefore);
  const loads = watchEmbedLoads(page, platform.origin);
  const { frame } = await open(page);
  await page.click('[data-action="scheme-dark"]');
  await expect(frame.getByTestId('color-scheme')).toHaveText('dark');
  for (let round = 0; round < 2; round++) {
    await toSettings(page);
    await toDashboard(page);
    await expect(page.getByTestId('status')).toHaveText('ready');
    await expect(frame.getByTestId('embed-root')).toHaveAttribute('data-state', 'ready');
    await expect(frame.getByTestId('color-scheme')).toHaveText('dark');
  }
  // The first navigation away hides the route where it is; the second also moves it, which
  // reloads the frame (its URL, with the spent session): the SDK loads it again with a fresh one.
  expect(platform.sessions()).toHaveLength(2);
  expect(platform.sessions().every((session) => session.usedAt !== undefined)).toBe(true);
  expect(loads).toHaveLength(3);
  await expect(page.locator('iframe')).toHaveCount(1);
});
