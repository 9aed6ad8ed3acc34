import { expect, test, type Page } from '@playwright/test';
import { mockEmbed, type MockEmbed } from '../packages/mock/src/playwright';
import { startMockPlatform, type MockPlatform } from '../packages/mock/src/index';
import { prepareAngularApp, startAngularServer, type AngularBuild, type AngularServer } from './support/angularApp';

// A fresh Angular app (`ng new --ssr`, our packages installed from `pnpm pack`, see
// support/angularApp.ts) as in production: `ng build`, then its Express server, which renders
// each request on the server and mints sessions through @platform-embed/server. Its page
// (e2e/angular/src/app/dashboardPage.ts) embeds the mock platform (localhost) from the host
// (127.0.0.1): two origins. Once zoneless, once with zone.js. Its keep-alive routes
// (e2e/angular/src/app/keptPages.ts, the app's RouteReuseStrategy in routeReuse.ts, made to keep
// its embeds with keepEmbeds(), or not with `?plainRouter`) are left for /settings and entered again.

let platform: MockPlatform;

test.beforeAll(async () => {
  // Making the app (ng new, install, two builds) takes minutes the first time; reused after.
  test.setTimeout(600_000);
  const report = prepareAngularApp();
  if (!report.reused) console.log(`fresh Angular app: ${report.steps.map(({ step, seconds }) => `${step} ${seconds} s`).join(', ')}`);
  platform = await startMockPlatform({
    host: 'localhost',
    dashboards: [
      { publicId: 'sales-overview', title: 'Sales overview', deploymentId: 1 },
      { publicId: 'sales-by-region', title: 'Sales by region', deploymentId: 1 },
    ],
  });
});
test.afterAll(async () => {
  await platform?.close();
});

// Every console error or warning and uncaught error fails the test (hydration mismatches, Angular's
// errors), but the failed requests a test causes on purpose (`expected`).
const problems = new WeakMap<Page, string[]>();
let expected: RegExp | undefined;
test.beforeEach(({ page }) => {
  platform.reset();
  expected = undefined;
  const list: string[] = [];
  problems.set(page, list);
  const add = (problem: string) => !expected?.test(problem) && list.length < 5 && list.push(problem.slice(0, 300));
  page.on('pageerror', (error) => add(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') add(`${message.type()}: ${message.text()}`);
  });
});
test.afterEach(({ page }) => {
  expect(problems.get(page)).toEqual([]);
});

const embedOf = (page: Page): MockEmbed => mockEmbed(page.frameLocator('platform-embed-dashboard iframe'));

// The keep-alive routes (e2e/angular/src/app/keptPages.ts): a route left for /settings and entered again by its links.
type Marked = Window & { hostMark?: string };
type Recorded = Window & { embedStatuses?: string[] };
/** The dashboard's frame (cross-origin: Playwright evaluates in it all the same). */
const frameOf = async (page: Page) => (await page.locator('platform-embed-dashboard iframe').elementHandle())!.contentFrame();
/** Sets a mark on the frame's window: still there, the frame kept its document. */
const markFrame = async (page: Page) => (await frameOf(page))!.evaluate(() => void ((window as Marked).hostMark = 'first'));
const frameMark = async (page: Page) => (await frameOf(page))!.evaluate(() => (window as Marked).hostMark ?? null);
/** The frame documents the page loaded from the mock platform's dashboard page. */
const countFrameLoads = (page: Page) => {
  const loads: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document' && request.frame() !== page.mainFrame() && request.url().includes('/embed/dashboard/'))
      loads.push(request.url());
  });
  return loads;
};
const leaveFor = async (page: Page, link: string) => {
  await page.getByRole('link', { name: link }).click();
  await expect(page.getByRole('heading', { name: link })).toBeVisible();
};
/** Leaves the dashboard's route for /settings and enters it again 3 times; the second time the color scheme is changed meanwhile. */
async function leaveAndEnter(page: Page, route: 'Reused dashboard' | 'Kept dashboard') {
  const marks: (string | null)[] = [];
  for (let round = 1; round <= 3; round++) {
    await leaveFor(page, 'Settings');
    if (round === 2) await page.getByTestId('dark').click();
    await leaveFor(page, route);
    await expect(page.getByTestId('status')).toHaveText('ready');
    await embedOf(page).ready();
    marks.push(await frameMark(page));
  }
  await expect(embedOf(page).colorScheme).toHaveText('dark');
  return marks;
}
const sessionsOf = (loads: string[]) => loads.map((url) => new URL(url).searchParams.get('session'));
const iframeSrc = (page: Page) => page.locator('platform-embed-dashboard iframe').getAttribute('src');
const sessionOf = (src: string | null) => (src ? new URL(src).searchParams.get('session') : null);

for (const build of ['zoneless', 'zone'] as AngularBuild[]) {
  test.describe(`fresh Angular app (${build === 'zone' ? 'zone.js' : 'zoneless'})`, () => {
    let server: AngularServer;
    test.beforeAll(async () => {
      server = await startAngularServer(build, platform);
    });
    test.afterAll(async () => {
      await server?.close();
    });
    const pageUrl = () => `${server.origin}/?platform=${encodeURIComponent(platform.origin)}`;

    test('the server renders the container and the loading template; hydration mints one session and the embed gets ready', async ({
      page,
    }) => {
      // The server HTML, as the browser first gets it.
      const response = await fetch(pageUrl());
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toMatch(/<platform-embed-dashboard[^>]*data-platform-embed="dashboard"/);
      expect(html).toMatch(/<platform-embed-dashboard[^>]*aria-busy="true"/);
      expect(html).toContain('Loading the dashboard…');
      expect(html).not.toContain('<iframe');
      expect(html).toContain('ngh='); // hydration annotations
      expect(platform.sessions()).toHaveLength(0);

      // The node the server rendered is the node after hydration (hydration reuses it, a client render would replace it).
      await page.addInitScript(() => {
        new MutationObserver((_, observer) => {
          const status = document.querySelector('[data-testid="status"]');
          if (!status) return;
          (window as unknown as { serverStatus: Element }).serverStatus = status;
          observer.disconnect();
        }).observe(document, { childList: true, subtree: true });
      });
      await page.goto(pageUrl());
      await expect(page.getByTestId('status')).toHaveText('ready');
      expect(
        await page.evaluate(
          () => (window as unknown as { serverStatus: Element }).serverStatus === document.querySelector('[data-testid="status"]'),
        ),
      ).toBe(true);
      await expect(page.getByTestId('loading')).toHaveCount(0);
      await expect(page.locator('platform-embed-dashboard')).not.toHaveAttribute('aria-busy');
      await embedOf(page).ready();

      const sessions = platform.sessions();
      expect(sessions).toHaveLength(1);
      expect(sessionOf(await iframeSrc(page))).toBe(sessions[0]!.sessionId);
      await expect(page.getByTestId('load-ms')).toHaveText(/^\d+$/); // (dashboardLoaded), typed: $event.loadDurationMs
    });

    test('a colorScheme signal change is an action on the same iframe; a publicId change reloads and replays it', async ({ page }) => {
      await page.goto(pageUrl());
      await expect(page.getByTestId('status')).toHaveText('ready');
      const embed = embedOf(page);
      await embed.ready();
      const first = await iframeSrc(page);
      await expect(embed.colorScheme).toHaveText('light');

      await page.getByTestId('dark').click();
      await expect(embed.colorScheme).toHaveText('dark');
      expect(await iframeSrc(page)).toBe(first);
      expect(platform.sessions()).toHaveLength(1);

      // The handle: an action through `handle()`.
      await page.getByTestId('refresh').click();
      await expect(embed.refreshCount).toHaveText('1');

      await page.getByTestId('regions').click();
      await expect.poll(() => iframeSrc(page)).toContain('/embed/dashboard/sales-by-region');
      await embed.ready();
      await expect(embed.colorScheme).toHaveText('dark'); // the host state, replayed in the new iframe
      expect(platform.sessions()).toHaveLength(2);
      await expect(page.getByTestId('status')).toHaveText('ready');
    });

    test('outputs fire with their typed payloads, in the zone with zone.js', async ({ page }) => {
      await page.goto(pageUrl());
      const embed = embedOf(page);
      await embed.ready();
      await embed.drilldown();
      await expect(page.getByTestId('drilled')).toHaveText('orders.revenue');
      if (build === 'zone') {
        // The handler ran in Angular's zone: the timer it started ends with change detection.
        await expect(page.getByTestId('in-zone')).toHaveText('true');
        await expect(page.getByTestId('later')).toHaveText('orders.revenue');
      } else await expect(page.getByTestId('in-zone')).toHaveText('false');
    });

    test('the error template shows why the load failed, and its retry loads again', async ({ page }) => {
      // The session route fails twice: the first load and its one retry (`[retry]="1"`).
      expected = /Failed to load resource: the server responded with a status of 503/;
      await fetch(`${server.origin}/test/fail-sessions/2`, { method: 'POST' });
      await page.goto(pageUrl());
      const alert = page.getByRole('alert');
      await expect(alert).toContainText('HTTP 503');
      await expect(page.getByTestId('status')).toHaveText('error');
      expect(platform.sessions()).toHaveLength(0);

      await page.getByTestId('retry').click();
      await expect(page.getByTestId('status')).toHaveText('ready');
      await expect(alert).toHaveCount(0);
      await embedOf(page).ready();
      expect(platform.sessions()).toHaveLength(1);
    });

    test('route reuse with keepEmbeds(): a dashboard left and entered again 3 times keeps its frame document and its one session; a colorScheme changed meanwhile is an action', async ({
      page,
    }) => {
      const loads = countFrameLoads(page);
      await page.goto(`${server.origin}/reused?platform=${encodeURIComponent(platform.origin)}`);
      await expect(page.getByTestId('status')).toHaveText('ready');
      await embedOf(page).ready();
      await markFrame(page);
      expect(await leaveAndEnter(page, 'Reused dashboard')).toEqual(['first', 'first', 'first']);
      await expect(embedOf(page).lastAction).toContainText('set-color-scheme');
      expect(platform.sessions()).toHaveLength(1);
      expect(loads).toHaveLength(1);
      expect(await page.evaluate(() => (window as Recorded).embedStatuses)).not.toContain('error');
    });

    test('keepAlive with keepEmbeds(), its route destroyed when left: parked with its document, adopted with no session', async ({
      page,
    }) => {
      const loads = countFrameLoads(page);
      await page.goto(`${server.origin}/kept?platform=${encodeURIComponent(platform.origin)}`);
      await embedOf(page).ready();
      await markFrame(page);
      expect(await leaveAndEnter(page, 'Kept dashboard')).toEqual(['first', 'first', 'first']);
      await expect(embedOf(page).lastAction).toContainText('set-color-scheme');
      expect(platform.sessions()).toHaveLength(1);
      expect(loads).toHaveLength(1);
      expect(await page.evaluate(() => (window as Recorded).embedStatuses)).not.toContain('error');
    });

    if (build === 'zoneless') {
      test('keepAlive without keepEmbeds (the router as it is): the view leaves the document before the component is destroyed, so the embed is parked cold: a new frame and a fresh session at each entry, its state replayed', async ({
        page,
      }) => {
        const loads = countFrameLoads(page);
        await page.goto(`${server.origin}/kept?platform=${encodeURIComponent(platform.origin)}&plainRouter`);
        await embedOf(page).ready();
        await markFrame(page);
        expect(await leaveAndEnter(page, 'Kept dashboard')).toEqual([null, null, null]);
        const sessions = platform.sessions().map(({ sessionId }) => sessionId);
        expect(sessions).toHaveLength(4);
        expect(sessionsOf(loads)).toEqual(sessions); // each frame a fresh session, never a used one again
        expect(await page.evaluate(() => (window as Recorded).embedStatuses)).not.toContain('error');
      });

      test('route reuse with keepEmbeds() without moveBefore (Safari): the frame is dropped when the route leaves; back, a new one with a fresh session and the kept state, never an error', async ({
        page,
      }) => {
        await page.addInitScript(() => delete (Element.prototype as { moveBefore?: unknown }).moveBefore);
        const loads = countFrameLoads(page);
        await page.goto(`${server.origin}/reused?platform=${encodeURIComponent(platform.origin)}`);
        await embedOf(page).ready();
        await markFrame(page);
        expect(await leaveAndEnter(page, 'Reused dashboard')).toEqual([null, null, null]);
        const sessions = platform.sessions().map(({ sessionId }) => sessionId);
        expect(sessions).toHaveLength(4);
        expect(sessionsOf(loads)).toEqual(sessions);
        expect(await page.evaluate(() => (window as Recorded).embedStatuses)).not.toContain('error');
      });
    }
  });
}

test.describe('the README’s Angular guide for the custom element, in the fresh app (zoneless)', () => {
  let server: AngularServer;
  test.beforeAll(async () => {
    server = await startAngularServer('zoneless', platform);
  });
  test.afterAll(async () => {
    await server?.close();
  });

  test('a sized block, ready with one session through session-url (even under SSR and hydration), typed events', async ({ page }) => {
    await page.goto(`${server.origin}/element?platform=${encodeURIComponent(platform.origin)}`);
    const element = page.locator('platform-dashboard');
    await expect(page.getByTestId('status')).toHaveText('ready');
    const box = await element.boundingBox();
    expect(box?.height).toBe(480);
    const embed = mockEmbed(page.frameLocator('platform-dashboard iframe'));
    await embed.ready();
    expect(platform.sessions()).toHaveLength(1);
    await embed.drilldown();
    await expect(page.getByTestId('drilled')).toHaveText('orders.revenue (dashboard)');
  });
});
