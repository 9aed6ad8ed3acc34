import { resolve } from 'node:path';
import { expect, test as base } from '@platform-embed/mock/playwright';
import type { Page } from '@playwright/test';
import { startStaticServer, type RunningServer } from './support/staticServer';

/*
 * The Playwright kit (`@platform-embed/mock/playwright`, as a user imports it: the built package)
 * driving a host page. The host app under test: a page on 127.0.0.1 embedding the mock platform
 * (on localhost: another origin, another site), with its own session route calling the mock's
 * generate-session, a line showing the last drilldown and a dark-mode button. In a host project
 * Playwright's `webServer` starts the app, and `test.use({ platformOptions: { port } })` gives the
 * mock the origin the app expects; here the host gets the mock's origin from the fixture.
 */
const coreDist = resolve(import.meta.dirname, '../packages/core/dist');

const SALES_PAGE = (platformOrigin: string) => `<!doctype html><title>Sales</title>
<p id="drill">Click a measure to drill in</p>
<button id="dark">Dark</button>
<div id="dashboard" style="width:960px;height:700px"></div>
<script type="module">
  import { embedDashboard } from '/core/index.mjs';
  const dashboard = embedDashboard({
    container: '#dashboard',
    baseUrl: ${JSON.stringify(platformOrigin)},
    publicId: 'sales-overview',
    session: () => fetch('/api/embed-session', { method: 'POST' }).then((r) => r.json()),
    onDrilldown: ({ member }) => (document.getElementById('drill').textContent = 'Drilled into ' + member),
  });
  document.getElementById('dark').onclick = () => dashboard.setColorScheme('dark');
</script>`;

const test = base.extend<{}, { host: RunningServer }>({
  host: [
    async ({ mockPlatform }, use) => {
      const host = await startStaticServer({
        host: '127.0.0.1',
        mounts: { '/core/': coreDist },
        pages: { '/sales': SALES_PAGE(mockPlatform.origin) },
        routes: async (req, res) => {
          if (req.url != '/api/embed-session' || req.method != 'POST') return false;
          const sessionId = await mockPlatform.mintSession({ deploymentId: 1, externalId: 'jane@example.com' });
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ sessionId }));
          return true;
        },
      });
      await use(host);
      await host.close();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ host }, use) => use(host.origin),
});

// The README's Playwright example ("Testing your integration"), as it runs here.
test('a drilldown in the embed shows on the sales page; the dark button switches the embed', async ({ page, platform }) => {
  await page.goto('/sales');
  const dashboard = platform.embedIn(page);
  await dashboard.ready();

  await dashboard.drilldown();
  await expect(page.getByText('Drilled into orders.revenue')).toBeVisible();

  await page.getByRole('button', { name: 'Dark' }).click();
  await expect(dashboard.colorScheme).toHaveText('dark');
  expect(platform.sessions()).toHaveLength(1);
});

test('each test starts with a fresh mock: sessions, and the page helpers of a failing embed', async ({ page, platform }) => {
  expect(platform.sessions()).toHaveLength(0);
  await page.goto('/sales');
  const dashboard = platform.embedIn(page.locator('#dashboard'));
  await expect(dashboard.root).toHaveAttribute('data-state', 'ready');
  await expect(dashboard.widgets).not.toHaveCount(0);
  await expect(dashboard.hostOrigin).toHaveText(new URL(page.url()).origin);
  await dashboard.raiseError();
  await expect(dashboard.errorBanner).toBeVisible();
  await expect(dashboard.eventLog).toContainText('error');
  expect(platform.sessions()[0]).toMatchObject({ usedAt: expect.any(Number) });
});

// A page shared by the tests of a serial block keeps its page-wide session record between them:
// a Retry-After wait one test's throttled route left must not hold the next test's session calls.
test.describe.serial('a page shared by tests', () => {
  let shared: Page;
  const RECORD = "Symbol.for('platform-embed.sessions@2')";
  const wait = () => shared.evaluate(`globalThis[${RECORD}]?.until`);
  test.beforeAll(async ({ browser, host }) => {
    shared = await browser.newPage({ baseURL: host.origin });
    await shared.goto('/sales');
  });
  test.afterAll(() => shared.close());

  test('one test leaves a Retry-After wait in the page (as a 429 with Retry-After: 30 does)', async ({ platform }) => {
    await platform.embedIn(shared).ready();
    await shared.evaluate(`globalThis[${RECORD}].until = Date.now() + 30000`);
    expect(await wait()).toBeGreaterThan(Date.now());
  });

  test('the next test finds no wait: the fixture ended it', async () => {
    expect(await wait()).toBe(0);
  });
});
