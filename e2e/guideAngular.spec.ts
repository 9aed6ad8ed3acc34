import { expect, test, type Page } from '@playwright/test';
import { mockEmbed, type MockEmbed } from '../packages/mock/src/playwright';
import { startMockPlatform, type MockPlatform } from '../packages/mock/src/index';
import { prepareAngularApp, startAngularDevServer, startAngularServer, type AngularBuild, type AngularServer } from './support/angularApp';
import { checkGuide, expectOnlyTheEmbedFailed, readGuide, type Guide } from './support/guides';
import { figures } from './support/figures';

// docs/guide/angular.md as written: a fresh `ng new --ssr` app with the guide's files over it and
// our packages installed from `pnpm pack` (support/angularApp.ts), driven by checkGuide as built
// by `ng build` and run by its Express server (which renders on the server and mints sessions
// through @platform-embed/server), and as `ng serve` runs it.
//
// The same app has pages of the test's own (e2e/angular), for what the guide does not show: the
// dashboard's inputs, outputs and handle, hydration, the error template's retry
// (dashboardPage.ts), the custom element (elementPage.ts), keep-alive routes left for /theme and
// entered again (keptPages.ts). They run in the guide's build (zoneless, the guide's keepEmbeds())
// and in a second build with zone.js and a RouteReuseStrategy that detaches the routes marked for
// reuse, through keepEmbeds() or, with `?plainRouter`, as Angular's router does without it
// (e2e/angular/src/main.zone.ts). The host is on 127.0.0.1, the mock platform on localhost.

let platform: MockPlatform;
let guide: Guide;

test.beforeAll(async () => {
  // Making the app (ng new, install, two builds) takes minutes; the project is reused while our
  // packages are the same.
  test.setTimeout(600_000);
  platform = await startMockPlatform({
    host: 'localhost',
    dashboards: [
      { publicId: 'sales-overview', title: 'Sales overview', deploymentId: 1 },
      { publicId: 'sales-by-region', title: 'Sales by region', deploymentId: 1 },
    ],
  });
  guide = readGuide('angular', platform.origin);
  const report = prepareAngularApp(guide, platform.origin);
  if (report.steps.length)
    figures(`the Angular guide's app: ${report.steps.map(({ step, seconds }) => `${step} ${seconds} s`).join(', ')}`);
});
test.afterAll(async () => {
  await platform?.close();
});

test.describe('docs/guide/angular.md', () => {
  test('ng build and the built server (production): the guide runs as written', async ({ page }) => {
    const server = await startAngularServer('zoneless', platform);
    try {
      await checkGuide(page, { guide, platform, origin: server.origin, output: server.output });
    } finally {
      await server.close();
    }
  });

  test('ng serve (development): the guide runs as written', async ({ page }) => {
    test.setTimeout(240_000);
    const server = await startAngularDevServer(platform);
    try {
      await checkGuide(page, { guide, platform, origin: server.origin, output: server.output });
      // The development build too: a bad input costs the embed, never the page.
      platform.reset();
      await badInputCostsTheEmbed(page, server.origin);
    } finally {
      await server.close();
    }
  });
});

// On the test's pages, every console error or warning and uncaught error fails the test
// (hydration mismatches, Angular's errors), but the failed requests a test causes on purpose (`expected`).
const problems = new WeakMap<Page, string[]>();
let expected: RegExp | undefined;
const watchProblems = () => {
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
};

const embedOf = (page: Page): MockEmbed => mockEmbed(page.frameLocator('platform-embed-dashboard iframe'));

// The keep-alive routes (e2e/angular/src/app/keptPages.ts): a route left for /theme and entered again by its links.
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
  await page.getByRole('link', { name: link, exact: true }).click();
  await expect(page.getByRole('heading', { name: link, exact: true })).toBeVisible();
};
/** Leaves the dashboard's route for /theme and enters it again 3 times; the second time the color scheme is changed meanwhile. */
async function leaveAndEnter(page: Page, route: 'Reused dashboard' | 'Kept dashboard') {
  const marks: (string | null)[] = [];
  for (let round = 1; round <= 3; round++) {
    await leaveFor(page, 'Theme');
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

/** A bad input costs the embed, never the page: the page renders and responds, the error template says why, one console line. */
async function badInputCostsTheEmbed(page: Page, origin: string) {
  const lines: string[] = [];
  page.on('console', (message) => message.type() === 'error' && lines.push(message.text()));
  expected = /"colorScheme" must be light\|dark\|auto \(got "purple"\)/;
  await page.goto(`${origin}/mistake?scheme=purple`);
  await expectOnlyTheEmbedFailed(page, page.locator('platform-embed-dashboard iframe'));
  expect(platform.sessions()).toHaveLength(0);
  expect(lines.filter((line) => expected!.test(line))).toHaveLength(1);
}

for (const build of ['zoneless', 'zone'] as AngularBuild[]) {
  test.describe(`the test's pages in the guide's app (${build === 'zone' ? 'zone.js, the test’s route reuse' : 'zoneless, the guide’s keepEmbeds()'})`, () => {
    let server: AngularServer;
    test.beforeAll(async () => {
      server = await startAngularServer(build, platform);
    });
    test.afterAll(async () => {
      await server?.close();
    });
    watchProblems();
    // Signed in, for the guide's session route (its placeholder reads the `user` cookie).
    test.beforeEach(({ page }) => page.context().addCookies([{ name: 'user', value: 'jane', url: server.origin }]));
    const pageUrl = () => `${server.origin}/dashboard`;

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

    test('a bad input (a color scheme from the query) costs the embed, never the page', async ({ page }) => {
      await badInputCostsTheEmbed(page, server.origin);
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
      // The platform is unavailable twice: the session route answers 503 to the first load and its one retry (`[retry]="1"`).
      // (The page hears no `(error)`: the failure is written to the console, once.)
      expected = /Failed to load resource: the server responded with a status of 503|EmbedError: .*HTTP 503/;
      platform.throttle({ status: 503, retryAfter: 0, times: 2 });
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

    test('keepAlive with keepEmbeds(), its route destroyed when left: parked with its document, adopted with no session', async ({
      page,
    }) => {
      const loads = countFrameLoads(page);
      await page.goto(`${server.origin}/kept`);
      await embedOf(page).ready();
      await markFrame(page);
      expect(await leaveAndEnter(page, 'Kept dashboard')).toEqual(['first', 'first', 'first']);
      await expect(embedOf(page).lastAction).toContainText('set-color-scheme');
      expect(platform.sessions()).toHaveLength(1);
      expect(loads).toHaveLength(1);
      expect(await page.evaluate(() => (window as Recorded).embedStatuses)).not.toContain('error');
    });

    if (build === 'zoneless') {
      test('the custom element (without the package): a sized block, ready with one session through session-url (even under SSR and hydration), typed events', async ({
        page,
      }) => {
        await page.goto(`${server.origin}/element`);
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
    }

    if (build === 'zone') {
      test('route reuse with keepEmbeds(): a dashboard left and entered again 3 times keeps its frame document and its one session; a colorScheme changed meanwhile is an action', async ({
        page,
      }) => {
        const loads = countFrameLoads(page);
        await page.goto(`${server.origin}/reused`);
        await expect(page.getByTestId('status')).toHaveText('ready');
        await embedOf(page).ready();
        await markFrame(page);
        expect(await leaveAndEnter(page, 'Reused dashboard')).toEqual(['first', 'first', 'first']);
        await expect(embedOf(page).lastAction).toContainText('set-color-scheme');
        expect(platform.sessions()).toHaveLength(1);
        expect(loads).toHaveLength(1);
        expect(await page.evaluate(() => (window as Recorded).embedStatuses)).not.toContain('error');
      });

      test('keepAlive without keepEmbeds (the router as it is): the view leaves the document before the component is destroyed, so the embed is parked cold: a new frame and a fresh session at each entry, its state replayed', async ({
        page,
      }) => {
        const loads = countFrameLoads(page);
        await page.goto(`${server.origin}/kept?plainRouter`);
        await embedOf(page).ready();
        await markFrame(page);
        expect(await leaveAndEnter(page, 'Kept dashboard')).toEqual([null, null, null]);
        const sessions = platform.sessions().map(({ sessionId }) => sessionId);
        expect(sessions).toHaveLength(4);
        expect(sessionsOf(loads)).toEqual(sessions); // each frame a fresh session, never a used one again
        expect(await page.evaluate(() => (window as Recorded).embedStatuses)).not.toContain('error');
      });

      test('route reuse without keepEmbeds (as the guide says): attached again, the frame loads its spent session, which the platform refuses (a 401 in the console); the SDK loads it again with a fresh session and the kept state', async ({
        page,
      }) => {
        expect(guide.text).toContain(
          "the platform refuses it (a `401` for the embed's page in the\nconsole), and the SDK notices and loads it once more with a fresh session and the kept state",
        );
        expected = /Failed to load resource: the server responded with a status of 401/;
        const loads = countFrameLoads(page);
        await page.goto(`${server.origin}/reused?plainRouter`);
        await embedOf(page).ready();
        await markFrame(page);
        expect(await leaveAndEnter(page, 'Reused dashboard')).toEqual([null, null, null]);
        const sessions = platform.sessions().map(({ sessionId }) => sessionId);
        expect(sessions).toHaveLength(4);
        // Each return: the spent session's page again (the browser's own load), then a fresh one.
        expect(sessionsOf(loads)).toEqual([sessions[0], sessions[0], sessions[1], sessions[1], sessions[2], sessions[2], sessions[3]]);
        expect(await page.evaluate(() => (window as Recorded).embedStatuses)).not.toContain('error');
      });

      test('route reuse with keepEmbeds() without moveBefore (Safari): the frame is dropped when the route leaves; back, a new one with a fresh session and the kept state, never an error', async ({
        page,
      }) => {
        await page.addInitScript(() => delete (Element.prototype as { moveBefore?: unknown }).moveBefore);
        const loads = countFrameLoads(page);
        await page.goto(`${server.origin}/reused`);
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
